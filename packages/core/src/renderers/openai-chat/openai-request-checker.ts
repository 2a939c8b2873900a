// Checks rendered OpenAI requests against the rule table, reusing the last check: an agent loop's
// request is last turn's request (the same frozen message objects) with a few messages at the end.
// Most rules are about one message or one assistant message and the tool messages answering it, so
// what they found before the last shared non-tool message still holds; they read only the messages
// from there on. When the window's cut moved (on, or back as more results were cleared), the request
// holds a long stretch of last turn's messages moved up or down: it is not read again when nothing
// was found in it. The rules about the whole list (not empty, ends on user, ids unique) read it all.
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
  /**
   * The messages of the request checked last, copied into one array kept from check to check: the
   * caller may change its request afterwards, and a new copy of a long request on every check would
   * be garbage the next one.
   */
  readonly #messages: unknown[] = [];

  /** `messages` copied into the kept array, whose first `from` are those messages already. */
  #keep(messages: ReadonlyArray<unknown>, from: number): ReadonlyArray<unknown> {
    const kept = this.#messages;
    kept.length = Math.min(kept.length, messages.length);
    for (let index = Math.min(from, kept.length); index < messages.length; index++) kept[index] = messages[index];
    return kept;
  }

  check(rules: ReadonlyArray<Rule<unknown>>, request: unknown, env: RuleEnv = {}): RuleViolation[] {
    const previous = this.#previous;
    this.#previous = undefined;
    if (!isRecord(request) || !Array.isArray(request.messages)) return checkRules(rules, request, env);
    const messages = request.messages as ReadonlyArray<unknown>;
    const usable = previous !== undefined && previous.rules === rules && previous.model === env.model;
    let from = usable ? resumeAt(previous, messages) : 0;
    // A stretch moved up or down is worth skipping when it is longer than the shared start.
    const stretch = usable ? movedStretch(previous, messages, from) : undefined;
    // OAI-020 reads the messages after the stretch knowing the calls made in it.
    const stretchIds = stretch === undefined ? undefined : this.#callIds.moved(request, stretch);
    const moved = stretchIds === undefined ? undefined : stretch;
    if (moved !== undefined) from = 0;
    const windowed = moved !== undefined ? requestCheckedFrom(request, 0, [moved.start, moved.end]) : from > 0 ? requestCheckedFrom(request, from) : request;
    const callIdsBefore = stretchIds ?? this.#callIds.before(request, from);

    const violations: RuleViolation[] = [];
    const found = new Map<Rule<unknown>, RuleViolation[]>();
    for (const rule of rules) {
      if (!LOCAL.has(rule)) {
        violations.push(...checkRules([rule], request, env));
        continue;
      }
      const windowRule = rule === callIdsNotReused && (from > 0 || moved !== undefined) ? { ...rule, check: (subject: unknown, report: Parameters<Rule<unknown>["check"]>[1]) => reportReusedCallIds(subject, report, callIdsBefore) } : rule;
      const fresh = checkRules([windowRule], windowed, env);
      const kept = from === 0 ? [] : (previous!.found.get(rule) ?? []).filter((violation) => violation.messageIndex !== undefined && violation.messageIndex < from);
      const merged = kept.length === 0 ? fresh : inRequestOrder(kept, fresh);
      found.set(rule, merged);
      violations.push(...merged);
    }
    this.#previous = { messages: this.#keep(messages, from), frozen: frozenPrefix(messages, previous, from), rules, model: env.model, found };
    this.#callIds.indexTo(request, messages.length);
    return violations;
  }
}

/**
 * The call ids of a request's first messages, each with the index of the first message that used it,
 * kept from check to check: the messages before the resume point are the last request's.
 */
class CallIdIndex {
  #firstAt = new Map<string, number>();
  /**
   * The ids of #firstAt in the order of their indexes (the map is filled in that order): the ids at
   * or after a resume point are the last ones, taken off without reading the others.
   */
  #ids: string[] = [];
  /** Messages indexed: messages[0..upTo). */
  #upTo = 0;

  /**
   * For a request whose stretch [start, end) is the last one's moved by `offset`: the ids of the calls
   * in the stretch, each with the index it is at now, as OAI-020 is to know them when it reads the
   * messages around it (the last check indexed all of its request); undefined when a message before
   * the stretch makes a call with one of them. The index then holds the request's messages[0..end).
   */
  moved(request: unknown, stretch: MovedStretch): ReadonlyMap<string, number> | undefined {
    const { start, end, offset } = stretch;
    // The stretch's ids are each used once in it (the last check found no reuse there), first there:
    // the index has them at their first use.
    const inStretch = new Map<string, number>();
    for (const [id, index] of this.#firstAt) if (index >= start + offset && index < end + offset) inStretch.set(id, index - offset);
    const firstAt = new Map<string, number>();
    for (let index = 0; index < start; index++) {
      const message = messageViewAt(request, index);
      if (message?.role !== "assistant") continue;
      for (const call of message.calls) {
        if (call.id === undefined) continue;
        // A call before the stretch with an id used in it: the stretch breaks OAI-020 now, and is read.
        if (inStretch.has(call.id)) return undefined;
        if (!firstAt.has(call.id)) firstAt.set(call.id, index);
      }
    }
    for (const [id, index] of inStretch) firstAt.set(id, index);
    // Ids before the stretch, then the stretch's (in their order there): indexes in order.
    this.#firstAt = firstAt;
    this.#ids = [...firstAt.keys()];
    this.#upTo = end;
    return inStretch;
  }

  before(request: unknown, from: number): ReadonlyMap<string, number> {
    if (from < this.#upTo) {
      const ids = this.#ids;
      while (ids.length > 0 && this.#firstAt.get(ids[ids.length - 1]!)! >= from) this.#firstAt.delete(ids.pop()!);
      this.#upTo = from;
    }
    this.indexTo(request, from);
    return this.#firstAt;
  }

  /** Indexes the request's messages up to `end` (a check indexes them all, for a next one whose window moved). */
  indexTo(request: unknown, end: number): void {
    for (let index = this.#upTo; index < end; index++) {
      const message = messageViewAt(request, index);
      if (message?.role !== "assistant") continue;
      for (const call of message.calls) {
        if (call.id === undefined || this.#firstAt.has(call.id)) continue;
        this.#firstAt.set(call.id, index);
        this.#ids.push(call.id);
      }
    }
    this.#upTo = Math.max(this.#upTo, end);
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

/** Last request's messages [start + offset, end + offset), now at [start, end) (the offset may be negative). */
interface MovedStretch {
  readonly start: number;
  readonly end: number;
  readonly offset: number;
}

/** A moved stretch shorter than this is read again: finding it costs more than it saves. */
const MIN_MOVED = 16;

/**
 * A long stretch of last request's messages that this one holds moved up or down (the window's cut
 * moved on, or back as more was cleared), from a message that is not a tool message to one that is
 * not (or the end), so that no run of tool messages crosses its edges in either request; undefined
 * when there is none longer than the shared start, or the last check found anything in it.
 */
function movedStretch(previous: Previous, messages: ReadonlyArray<unknown>, sharedStart: number): MovedStretch | undefined {
  const before = previous.messages;
  let head = 0;
  while (head < messages.length && head < before.length && messages[head] === before[head]) head++;
  const aligned = alignment(before, messages, head);
  if (aligned === undefined) return undefined;
  const { first, offset } = aligned;
  let shared = first;
  while (shared < messages.length && shared + offset < before.length && messages[shared] === before[shared + offset] && Object.isFrozen(messages[shared])) shared++;
  let start = first;
  while (start < shared && isTool(messages[start])) start++;
  let end = shared;
  // Both runs that end there end there: the message after is no tool message in either request.
  while (end > start && !((end === messages.length || !isTool(messages[end])) && (end < shared || end + offset >= before.length || !isTool(before[end + offset])))) end--;
  if (end - start < Math.max(MIN_MOVED, sharedStart)) return undefined;
  for (const found of previous.found.values()) {
    for (const violation of found) if (violation.messageIndex !== undefined && violation.messageIndex >= start + offset && violation.messageIndex < end + offset) return undefined;
  }
  return { start, end, offset };
}

/** Where this request's messages first line up with the last one's after the shared start: one of the next few found further on in the other request. */
function alignment(before: ReadonlyArray<unknown>, messages: ReadonlyArray<unknown>, head: number): { first: number; offset: number } | undefined {
  for (let index = head; index < head + 4; index++) {
    // The oldest messages gone: this one was further down last time.
    const message = messages[index];
    if (index < messages.length && isFrozenObject(message)) {
      const then = before.indexOf(message, index + 1);
      if (then >= 0) return { first: index, offset: then - index };
    }
    // Older messages kept again: last request's is further down now.
    const was = before[index];
    if (index < before.length && isFrozenObject(was)) {
      const now = messages.indexOf(was, index + 1);
      if (now >= 0) return { first: now, offset: index - now };
    }
  }
  return undefined;
}

function isFrozenObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.isFrozen(value);
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
