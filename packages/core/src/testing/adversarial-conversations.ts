// Generates the conversations that make providers answer HTTP 400 (reference/providers.md §8): calls
// without results and results without calls, parallel calls answered out of order or interleaved with
// other messages, duplicates, blank and invisible-only text, lone surrogates, foreign tool ids and
// names, broken arguments, system messages and summaries anywhere, interrupted runs, persisted errors
// followed by "continue", thinking, and every other item type. fast-check is passed in, so this module
// costs nothing at run time to those who do not test with it.
import type fc from "fast-check";
import type { ItemInput } from "../model/item.js";
import { copiesEditsDates } from "./adversarial/copies-edits-dates.js";
import { emptyCallIds } from "./adversarial/empty-call-ids.js";
import { persistedFailures } from "./adversarial/persisted-failures.js";
import { storedSystemMessages } from "./adversarial/stored-system-messages.js";
import { summariesOverNewest } from "./adversarial/summaries-over-newest.js";

type FastCheck = typeof fc;

/** One step of a generated history; ids are given afterwards, in order. */
type Step =
  | { kind: "user"; text: string; attachment: boolean; excluded: boolean }
  | { kind: "assistant"; text: string; reasoning: "none" | "signed" | "unsigned" }
  | { kind: "calls"; text: string; calls: Array<{ id: string; name: string; args: string }>; answers: Answer[] }
  | { kind: "orphan"; callId: string; output: string }
  | { kind: "system"; text: string }
  | { kind: "summary"; text: string }
  | { kind: "error"; text: string }
  | { kind: "thinking"; text: string }
  | { kind: "other"; type: "subagent-spawn" | "subagent-message" | "subagent-result" | "parent-message" | "todo-update" | "task-completed" | "task-abandoned" | "task-terminated" | "user-intervention"; text: string }
  | { kind: "duplicate" };

/** What happens to the results of one call-making message. */
interface Answer {
  readonly order: "in-order" | "reversed";
  readonly missing: number;
  readonly duplicated: boolean;
  readonly interleaved: boolean;
  readonly early: boolean;
  readonly output: string;
  readonly isError: boolean;
}

export interface AdversarialOptions {
  /** Longest history, in steps. Default 14. */
  readonly maxSteps?: number;
  /**
   * Then store the history the way real stores do, up to three times over: records written twice or
   * edited, dates that are not dates, calls and results without ids, system messages at the start and
   * mid-conversation, persisted model failures (retried, then "continue"), a summary reaching the
   * newest turn. Default true; false gives the generated history as it is.
   */
  readonly storeQuirks?: boolean;
}

export function adversarialConversations(fc: FastCheck, options: AdversarialOptions = {}) {
  const text = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom("Fix the failing test.", "Sure, looking now.", "你好，世界。请总结一下。", "Résumé: 3 files 🚀", '{"status":"ok"}') },
    { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
    { weight: 1, arbitrary: fc.constantFrom("", " ", "\n\t", "\u200B", "\uFEFF\u2060", "\u00AD ") },
    { weight: 1, arbitrary: fc.constantFrom("cut emoji \uD83D", "\uDE00 lone low", "ok \uD83D\uDE00 fine") },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  );
  const callId = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom("call_1", "call_2", "call_3", "toolu_01A", "c") },
    { weight: 1, arbitrary: fc.constantFrom(`fc_${"68a1b2c3d4e5f6".repeat(4)}`, "functions.eval:301", "call id with spaces", "ÿ") },
  );
  const toolName = fc.oneof({ weight: 5, arbitrary: fc.constantFrom("read_file", "search", "run-tests") }, { weight: 1, arbitrary: fc.constantFrom("github.search", "mcp:fs/read", "2fa", "x".repeat(70)) });
  const args = fc.oneof({ weight: 5, arbitrary: fc.constantFrom('{"path":"a.ts"}', "{}", '{"q":"你好"}') }, { weight: 1, arbitrary: fc.constantFrom("", "   ", '{"path":"a.t', "[1,2]", "null", '"text"') });
  const answer = fc.record({
    order: fc.constantFrom("in-order" as const, "reversed" as const),
    missing: fc.nat({ max: 2 }),
    duplicated: fc.boolean(),
    interleaved: fc.boolean(),
    early: fc.boolean(),
    output: text,
    isError: fc.boolean(),
  });
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant("user" as const), text, attachment: fc.boolean(), excluded: fc.boolean() }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant("assistant" as const), text, reasoning: fc.constantFrom("none" as const, "signed" as const, "unsigned" as const) }) },
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant("calls" as const),
        text,
        calls: fc.array(fc.record({ id: callId, name: toolName, args }), { minLength: 1, maxLength: 3 }),
        answers: fc.array(answer, { minLength: 1, maxLength: 1 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("orphan" as const), callId, output: text }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("system" as const), text }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("summary" as const), text }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("error" as const), text: fc.constantFrom("LLM_TIMEOUT: no answer", "rate limited", "") }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("thinking" as const), text }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("other" as const),
        type: fc.constantFrom(
          "subagent-spawn" as const,
          "subagent-message" as const,
          "subagent-result" as const,
          "parent-message" as const,
          "todo-update" as const,
          "task-completed" as const,
          "task-abandoned" as const,
          "task-terminated" as const,
          "user-intervention" as const,
        ),
        text,
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: "duplicate" as const }) },
  );
  const conversations = fc.array(step, { minLength: 0, maxLength: options.maxSteps ?? 14 }).map(toItems);
  if (options.storeQuirks === false) return conversations;
  const quirk = fc.oneof(copiesEditsDates(fc), emptyCallIds(fc), storedSystemMessages(fc), persistedFailures(fc), summariesOverNewest(fc));
  return fc.tuple(conversations, fc.array(quirk, { maxLength: 3 })).map(([items, quirks]) => quirks.reduce((stored, storeQuirk) => storeQuirk(stored), items));
}

function other(id: string, type: Extract<Step, { kind: "other" }>["type"], text: string): ItemInput {
  switch (type) {
    case "subagent-spawn":
      return { id, type, subagentId: "agent_1", agentType: "researcher", text };
    case "subagent-message":
    case "subagent-result":
      return { id, type, subagentId: "agent_1", text };
    case "parent-message":
      return { id, type, parentAgentId: "parent", text };
    default:
      return { id, type, text };
  }
}

function toItems(steps: ReadonlyArray<Step>): ItemInput[] {
  const items: ItemInput[] = [];
  let held: ItemInput[] = [];
  steps.forEach((step, index) => {
    const id = `s${index}`;
    // Results held back by the previous step's interleaving arrive after this step.
    const pending = held;
    held = [];
    switch (step.kind) {
      case "user":
        items.push({
          id,
          type: "user",
          text: step.text,
          ...(step.attachment ? { attachments: [{ type: "image" as const, url: "data:image/png;base64,iVBORw0KGgo=" }] } : {}),
          ...(step.excluded ? { metadata: { includeInContext: false } } : {}),
        });
        break;
      case "assistant":
        items.push({
          id,
          type: "assistant",
          text: step.text,
          ...(step.reasoning === "none" ? {} : { reasoning: [{ text: "Let me think.", ...(step.reasoning === "signed" ? { signature: "sig-abc" } : {}) }] }),
        });
        break;
      case "calls": {
        const made = step.calls.map((call, position) => ({ ...call, name: call.name, id: call.id === "c" ? `c${index}_${position}` : call.id }));
        const answer = step.answers[0]!;
        const results: ItemInput[] = made.slice(0, Math.max(0, made.length - answer.missing)).map((call, position) => ({
          id: `${id}-r${position}`,
          type: "tool-result",
          callId: call.id,
          toolName: call.name,
          output: answer.output,
          isError: answer.isError,
        }));
        if (answer.order === "reversed") results.reverse();
        if (answer.duplicated && results.length > 0) results.push({ ...results[0]!, id: `${id}-dup` } as ItemInput);
        const assistant: ItemInput = { id, type: "assistant", text: step.text, toolCalls: made.map((call) => ({ id: call.id, name: call.name, arguments: call.args })) };
        if (answer.early && results.length > 0) items.push(results.shift()!);
        items.push(assistant);
        if (answer.interleaved && results.length > 0) {
          items.push(results.shift()!);
          held = results;
        } else {
          items.push(...results);
        }
        break;
      }
      case "orphan":
        items.push({ id, type: "tool-result", callId: step.callId, output: step.output });
        break;
      case "system":
        items.push({ id, type: "system", text: step.text });
        break;
      case "summary":
        items.push({ id, type: "summary", text: step.text, coveredIds: [] });
        break;
      case "error":
        items.push({ id, type: "error", text: step.text });
        break;
      case "thinking":
        items.push({ id, type: "thinking", text: step.text });
        break;
      case "other":
        items.push(other(id, step.type, step.text));
        break;
      case "duplicate":
        if (items.length > 0) items.push(structuredClone(items[items.length - 1]!));
        break;
    }
    items.push(...pending);
  });
  items.push(...held);
  return items;
}
