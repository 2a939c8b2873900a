// Checks rendered OpenAI requests against the rule table, reusing the last check: an agent loop's
// request is last turn's request (the same frozen message objects) with a few messages at the end.
// Most rules are about one message or one assistant message and the tool messages answering it, so
// what they found before the last shared non-tool message still holds; they read only the messages
// from there on. The rules about the whole list (not empty, ends on user, ids unique) read it all.
// The result is exactly what checkRules(openAIChatRules, request) gives.
import type { Rule, RuleEnv, RuleViolation } from "../../spec/rule.js";
import { checkRules } from "../../validation/check-rules.js";
import { requestCheckedFrom } from "../../validation/checked-from.js";
import { isRecord, messageViewAt } from "./openai-chat-message-view.js";
import { openAIChatRules } from "./openai-chat-rules.js";
import { callIdsNotReused, reportReusedCallIds } from "./openai-chat-tool-call-rules.js";

/**
 * Rules whose findings depend on the request as a whole, not on one run of messages. Each reads only
 * the first or last few messages, or a field of the request (OAI-023). OAI-020 (a call id used again later) is read from the resume point
 * on, knowing the ids of the calls before it.
 */
const WHOLE_REQUEST = new Set(["OAI-001", "OAI-017", "OAI-018", "OAI-019", "OAI-023"]);
const LOCAL: ReadonlySet<Rule<unknown>> = new Set(openAIChatRules.filter((rule) => !WHOLE_REQUEST.has(rule.id)));

const isTool = (message: unknown) => isRecord(message) && message.role === "tool";

interface Previous {
  readonly messages: ReadonlyArray<unknown>;
  /** How many of the first messages were frozen: frozen stays frozen, so they need no look again. */
  readonly frozen: number;
  readonly rules: ReadonlyArray<Rule<unknown>>;
  readonly model: string | undefined;
  readonly found: ReadonlyMap<Rule<unknown>, ReadonlyArray<RuleViolation>>;
}

export class OpenAIRequestChecker {
  #previous: Previous | undefined;
  readonly #callIds = new CallIdIndex();

  check(rules: ReadonlyArray<Rule<unknown>>, request: unknown, env: RuleEnv = {}): RuleViolation[] {
    const previous = this.#previous;
    this.#previous = undefined;
    if (!isRecord(request) || !Array.isArray(request.messages)) return checkRules(rules, request, env);
    const messages = request.messages as ReadonlyArray<unknown>;
    const from = previous !== undefined && previous.rules === rules && previous.model === env.model ? resumeAt(previous, messages) : 0;
    const windowed = from > 0 ? requestCheckedFrom(request, from) : request;
    const callIdsBefore = this.#callIds.before(request, from);

    const violations: RuleViolation[] = [];
    const found = new Map<Rule<unknown>, RuleViolation[]>();
    for (const rule of rules) {
      if (!LOCAL.has(rule)) {
        violations.push(...checkRules([rule], request, env));
        continue;
      }
      const windowRule = rule === callIdsNotReused && from > 0 ? { ...rule, check: (subject: unknown, report: Parameters<Rule<unknown>["check"]>[1]) => reportReusedCallIds(subject, report, callIdsBefore) } : rule;
      const fresh = checkRules([windowRule], windowed, env);
      const kept = from === 0 ? [] : (previous!.found.get(rule) ?? []).filter((violation) => violation.messageIndex !== undefined && violation.messageIndex < from);
      const merged = kept.length === 0 ? fresh : inRequestOrder(kept, fresh);
      found.set(rule, merged);
      violations.push(...merged);
    }
    this.#previous = { messages: messages.slice(), frozen: frozenPrefix(messages, previous, from), rules, model: env.model, found };
    return violations;
  }
}

/**
 * The call ids of a request's first messages, each with the index of the first message that used it,
 * kept from check to check: the messages before the resume point are the last request's.
 */
class CallIdIndex {
  readonly #firstAt = new Map<string, number>();
  /** Messages indexed: messages[0..upTo). */
  #upTo = 0;

  before(request: unknown, from: number): ReadonlyMap<string, number> {
    if (from < this.#upTo) {
      for (const [id, index] of this.#firstAt) if (index >= from) this.#firstAt.delete(id);
      this.#upTo = from;
    }
    for (let index = this.#upTo; index < from; index++) {
      const message = messageViewAt(request, index);
      if (message?.role !== "assistant") continue;
      for (const call of message.calls) if (call.id !== undefined && !this.#firstAt.has(call.id)) this.#firstAt.set(call.id, index);
    }
    this.#upTo = from;
    return this.#firstAt;
  }
}

/**
 * The first message the rules must read again: the last non-tool message at or before the first
 * difference, so that no run of tool messages crosses it, in this request or the last one.
 */
function resumeAt(previous: Previous, messages: ReadonlyArray<unknown>): number {
  const before = previous.messages;
  let shared = 0;
  const limit = Math.min(before.length, messages.length);
  // Only frozen messages are known not to have changed since they were checked.
  while (shared < limit && messages[shared] === before[shared] && (shared < previous.frozen || Object.isFrozen(messages[shared]))) shared++;
  for (let from = Math.min(shared, messages.length - 1); from > 0; from--) {
    if (isTool(messages[from])) continue;
    if (from < shared || from >= before.length || !isTool(before[from])) return from;
  }
  return 0;
}

/** How many of the first messages are frozen, looking only at those after the ones known from the last check. */
function frozenPrefix(messages: ReadonlyArray<unknown>, previous: Previous | undefined, from: number): number {
  // Up to the resume point, the messages are the last request's.
  let frozen = previous === undefined ? 0 : Math.min(previous.frozen, from);
  while (frozen < messages.length && Object.isFrozen(messages[frozen])) frozen++;
  return frozen;
}

/** Kept findings about earlier messages go after what the rule found in fields before `messages`. */
function inRequestOrder(kept: ReadonlyArray<RuleViolation>, fresh: ReadonlyArray<RuleViolation>): RuleViolation[] {
  const firstAfter = fresh.findIndex((violation) => violation.messageIndex !== undefined || violation.path?.startsWith("tools") === true);
  const split = firstAfter === -1 ? fresh.length : firstAfter;
  return [...fresh.slice(0, split), ...kept, ...fresh.slice(split)];
}
