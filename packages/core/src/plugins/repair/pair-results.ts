// Pairs every tool call with exactly one result, placed right after the message that made the call
// and in the order of the calls (OAI-003/004/005, ANT-006/007/009, GEM-007/008):
// - a result stored away from its call (another message in between, or stored before the call) is moved;
// - a second result for a call, or a second copy of an assistant message, is dropped;
// - a result whose call is not in the context is dropped, or kept as user text by option;
// - a call without a result gets a synthesized one saying so, or is stripped by option.
// Calls are answered first unanswered call first, so a reused call id pairs in order.
import { frozenMadeItem } from "../../model/frozen-item.js";
import { isBlank } from "../../model/is-blank.js";
import type { Item, ItemOf } from "../../model/item.js";
import type { ToolCall } from "../../model/tool-call.js";
import type { StageContext } from "../../pipeline/stage-context.js";
import { makesCalls } from "./merge-parallel-calls.js";
import { summaryCoverage } from "./summary-coverage.js";

type Assistant = ItemOf<"assistant">;
type ToolResult = ItemOf<"tool-result">;

export interface PairOptions {
  readonly orphanResults: "drop" | "text";
  readonly unansweredCalls: "synthesize" | "strip";
  readonly interruptedText: string;
  readonly omittedText: string;
}

/** An assistant message that makes calls, with the results gathered for it. */
interface CallBlock {
  readonly assistant: Assistant;
  /** Results in the order they arrived. */
  readonly results: ToolResult[];
  /** The result answering each call, by the call's position (one message may repeat an id). */
  readonly answers: Array<ToolResult | undefined>;
  /** Results that were not adjacent to the call when stored. */
  readonly moved: Set<ToolResult>;
}

/** A call still waiting for its result. */
interface Slot {
  readonly block: CallBlock;
  readonly position: number;
}

/** Escapes ":" so that "a" + "b:c" and "a:b" + "c" cannot make the same id. */
const part = (text: string) => text.replaceAll("%", "%25").replaceAll(":", "%3A");

/** The id of a synthesized result; a message that repeats a call id gets one result per call all the same. */
function synthesizedId(kind: string, assistantId: string, callId: string, repeat: number | undefined): string {
  return `ctxpipe:${kind}:${part(assistantId)}:${part(callId)}${repeat === undefined ? "" : `:${repeat}`}`;
}

// The results synthesized for an assistant message's calls, by what they hold: the call still waiting
// for its result comes back on every build of an agent loop, and gets the same object each time.
const synthesized = new WeakMap<Item, Map<string, ToolResult>>();

/** The result answering `call` of `assistant` with `output`, made once per message, call and text. */
function synthesizedResult(assistant: Assistant, call: ToolCall, kind: "omitted" | "interrupted", repeat: number | undefined, output: string): ToolResult {
  const id = synthesizedId(kind, assistant.id, call.id, repeat);
  const key = `${id}\u0000${call.name}\u0000${call.kind}\u0000${output}`;
  let made = synthesized.get(assistant);
  if (made === undefined) {
    made = new Map();
    synthesized.set(assistant, made);
  }
  let result = made.get(key);
  if (result === undefined) {
    result = frozenMadeItem<ToolResult>({ id, type: "tool-result", role: "tool", callId: call.id, toolName: call.name, output, isError: true, kind: call.kind, metadata: {} });
    made.set(key, result);
  }
  return result;
}

/** Whether the list already pairs up: the common case, checked without allocating a new list. */
function alreadyPaired(items: ReadonlyArray<Item>): boolean {
  const seenCalls = new Set<string>();
  let expected: string[] = [];
  let next = 0;
  for (const item of items) {
    if (item.type === "tool-result") {
      if (expected[next] !== item.callId) return false;
      next++;
      continue;
    }
    if (next < expected.length) return false;
    if (item.type === "assistant" && item.toolCalls.length > 0) {
      expected = item.toolCalls.map((call) => call.id);
      next = 0;
      for (const id of expected) {
        if (seenCalls.has(id)) return false;
        seenCalls.add(id);
      }
    } else {
      expected = [];
      next = 0;
    }
  }
  return next === expected.length;
}

/**
 * For a list that is one part of a longer one (see repair-memo.ts): what the explanations must be
 * looked up in, which is the whole list rather than the part.
 */
export interface PairScope {
  /** Which summary stands in for each covered id, in the whole list. */
  coverage(): Map<string, string>;
  /** The last stored result for `callId` that the list does not hold (an earlier stage left it out). */
  storedResult(callId: string, isPresent: (id: string) => boolean): ToolResult | undefined;
}

export function pairResults(items: ReadonlyArray<Item>, context: StageContext, options: PairOptions, scope?: PairScope): Item[] | undefined {
  if (alreadyPaired(items)) return undefined;

  const sequence: Array<Item | CallBlock> = [];
  const waiting = new Map<string, Slot[]>();
  const answered = new Set<string>();
  // Results stored before the call they answer, held until the call shows up; one is used only when
  // nothing answers the call in place.
  const laterCalls = new Set<string>();
  for (const item of items) if (makesCalls(item)) for (const call of item.toolCalls) laterCalls.add(call.id);
  const early = new Map<string, ToolResult>();
  let coverage: Map<string, string> | undefined;
  const summarizedBy = (id: string | undefined) => {
    if (id === undefined) return undefined;
    coverage ??= scope === undefined ? summaryCoverage(items, context.inputItems) : scope.coverage();
    return coverage.get(id);
  };
  const orphans: ToolResult[] = [];
  let previous: Item | undefined;
  let lastBlock: CallBlock | undefined;

  const fill = ({ block, position }: Slot, result: ToolResult, adjacent: boolean) => {
    answered.add(result.callId);
    block.results.push(result);
    block.answers[position] = result;
    if (!adjacent) block.moved.add(result);
  };
  const answer = (result: ToolResult, adjacent: boolean) => {
    const queue = waiting.get(result.callId)!;
    const slot = queue.shift()!;
    if (queue.length === 0) waiting.delete(result.callId);
    fill(slot, result, adjacent);
  };
  const earlyFor: Array<{ slot: Slot; result: ToolResult }> = [];

  for (const item of items) {
    if (makesCalls(item)) {
      const block: CallBlock = { assistant: item, results: [], answers: [], moved: new Set() };
      item.toolCalls.forEach((call, position) => {
        laterCalls.delete(call.id);
        const queue = waiting.get(call.id);
        if (queue === undefined) waiting.set(call.id, [{ block, position }]);
        else queue.push({ block, position });
        const stored = early.get(call.id);
        if (stored !== undefined) {
          early.delete(call.id);
          earlyFor.push({ slot: { block, position }, result: stored });
        }
      });
      sequence.push(block);
      lastBlock = block;
    } else if (item.type === "tool-result") {
      const block = waiting.get(item.callId)?.[0]?.block;
      if (block !== undefined) {
        const adjacent = previous !== undefined && (previous === block.assistant || (previous.type === "tool-result" && block === lastBlock && block.results.includes(previous)));
        answer(item, adjacent);
      } else if (laterCalls.has(item.callId) && !early.has(item.callId)) {
        early.set(item.callId, item);
      } else {
        orphans.push(item);
        sequence.push(item);
      }
    } else {
      sequence.push(item);
    }
    previous = item;
  }
  for (const { slot, result } of earlyFor) {
    if (slot.block.answers[slot.position] === undefined) {
      const queue = waiting.get(result.callId);
      const index = queue?.findIndex((waitingSlot) => waitingSlot.block === slot.block && waitingSlot.position === slot.position) ?? -1;
      if (index !== -1) queue!.splice(index, 1);
      fill(slot, result, false);
    } else {
      early.set(`${result.callId}\u0000${result.id}`, result);
    }
  }
  for (const result of early.values()) {
    orphans.push(result);
    sequence.push(result);
  }

  // Why each orphan has no call in the context.
  const orphanSet = new Set(orphans);
  const whyOrphan = (result: ToolResult): string => {
    // pair-empty-call-ids gave every call without an id one, and paired what it could by position.
    if (result.callId === "") return "it has no call id, and no call without an id before it in its turn is left to pair with by position";
    if (answered.has(result.callId)) return `a second result for call "${result.callId}"`;
    const maker = context.inputItems.find((input) => input.type === "assistant" && input.toolCalls.some((call) => call.id === result.callId));
    const summary = summarizedBy(maker?.id);
    if (summary !== undefined) return `its call "${result.callId}" (in "${maker!.id}") is covered by summary "${summary}"`;
    if (maker !== undefined) return `its call "${result.callId}" (in "${maker.id}") was left out by an earlier stage`;
    return `no assistant message in the context made call "${result.callId}"`;
  };

  let present: Set<string> | undefined;
  let storedResults: Map<string, ToolResult> | undefined;
  const storedResultFor = (callId: string): ToolResult | undefined => {
    present ??= new Set(items.map((item) => item.id));
    if (scope !== undefined) return scope.storedResult(callId, (id) => present!.has(id));
    storedResults ??= new Map(
      context.inputItems.filter((input): input is ToolResult => input.type === "tool-result" && !present!.has(input.id)).map((input) => [input.callId, input]),
    );
    return storedResults.get(callId);
  };
  const output: Item[] = [];
  for (const entry of sequence) {
    if (!("assistant" in entry)) {
      if (entry.type === "tool-result" && orphanSet.has(entry)) {
        const why = whyOrphan(entry);
        if (options.orphanResults === "text" && !answered.has(entry.callId)) {
          const label = `${entry.isError ? "Error from" : "Result of"} an earlier ${entry.toolName ?? "tool"} call${entry.callId === "" ? "" : ` (${entry.callId})`}:`;
          const { callId: _callId, toolName: _toolName, output: body, isError: _isError, durationMs: _durationMs, kind: _kind, ...rest } = entry;
          output.push({ ...rest, type: "user", role: "user", text: `${label}\n${body}` });
          context.report.repair(entry, `kept as user text: ${why}`);
        } else {
          context.report.drop(entry, why);
        }
        continue;
      }
      output.push(entry);
      continue;
    }

    const { assistant, results, answers, moved } = entry;
    const missing = assistant.toolCalls.filter((_call, position) => answers[position] === undefined);
    let maker = assistant;
    let slots = answers;
    if (missing.length > 0 && options.unansweredCalls === "strip") {
      const kept = assistant.toolCalls.filter((_call, position) => answers[position] !== undefined);
      slots = answers.filter((answer) => answer !== undefined);
      const names = missing.map((call) => `"${call.id}" (${call.name})`).join(", ");
      if (kept.length === 0 && isBlank(assistant.text)) {
        context.report.drop(assistant, `its only calls ${names} have no result`);
        continue;
      }
      maker = { ...assistant, toolCalls: kept };
      context.report.repair(assistant, `removed calls ${names}, which have no result`);
    }
    output.push(maker);
    const arrival = new Map(results.map((result, index) => [result, index]));
    let latestArrival = -1;
    for (const [position, call] of maker.toolCalls.entries()) {
      let result = slots[position];
      if (result === undefined) {
        // A stored result an earlier stage removed (filtered, summarized) rather than one never stored.
        const stored = storedResultFor(call.id);
        const summary = summarizedBy(stored?.id);
        const omitted = stored !== undefined;
        result = synthesizedResult(assistant, call, omitted ? "omitted" : "interrupted", maker.toolCalls.findIndex((other) => other.id === call.id) === position ? undefined : position, omitted ? options.omittedText : options.interruptedText);
        const why =
          summary !== undefined
            ? `its result "${stored!.id}" is covered by summary "${summary}"`
            : omitted
              ? `its result "${stored.id}" was left out by an earlier stage`
              : "it has no result (the run was interrupted)";
        context.report.synthesize(result, `answers call "${call.id}" (${call.name}) of "${assistant.id}": ${why}`);
      } else if (moved.has(result)) {
        context.report.repair(result, `moved right after the assistant message "${assistant.id}" that made call "${call.id}"`);
      } else if (arrival.get(result)! < latestArrival) {
        context.report.repair(result, `put in the order of the calls of "${assistant.id}"`);
      }
      latestArrival = Math.max(latestArrival, arrival.get(result) ?? -1);
      output.push(result);
    }
  }
  return output;
}
