// Calls stored without an id (`id: ""`: some local and OpenAI-compatible servers return calls so, and
// the app stores their results with `tool_call_id: ""`) are paired with their results by position and
// given an id, so that the passes after this one pair, move and check them like any other call.
//
// The window of an assistant message that makes calls runs from it to the next assistant message that
// makes calls, or the next user message, whichever comes first. In that window, the k-th result with an
// empty call id answers the k-th call with an empty id of the message (other calls pair by their ids).
// A call with no such result still gets an id (pair-results then answers it as interrupted); a result
// with an empty id outside any window, or beyond the calls, stays an orphan for pair-results.
import type { Item, ItemOf } from "../../model/item.js";
import type { StageContext } from "../../pipeline/stage-context.js";
import { makesCalls } from "./merge-parallel-calls.js";
import { freshId } from "./rewrite-call-ids.js";

type Assistant = ItemOf<"assistant">;

/** An assistant message whose calls without an id were given ids, and the results paired with them. */
interface Window {
  readonly assistant: Assistant;
  /** Positions (in the message's calls) of the calls that had no id, and the id each was given. */
  readonly calls: ReadonlyArray<{ readonly position: number; readonly id: string }>;
  /** Id of the result paired with each of `calls`, in the same order. */
  readonly results: string[];
}

const hasEmptyId = (item: Item) => makesCalls(item) && item.toolCalls.some((call) => call.id === "");

/** The name a report gives a call: its position counted from 1 and its tool. */
const callName = (assistant: Assistant, position: number) => `call ${position + 1} (${assistant.toolCalls[position]!.name})`;

/**
 * `reserved`: for a list that is the later part of a longer one (see repair-memo.ts), the call ids of
 * the part before it, which the ids given here must not take.
 */
export function pairEmptyCallIds(items: ReadonlyArray<Item>, context: StageContext, reserved: ReadonlySet<string> = new Set()): Item[] | undefined {
  if (!items.some(hasEmptyId)) return undefined;

  // Every id the list already uses, on a call or a result: a given id must not pair with any of them.
  const used = new Set<string>();
  for (const item of items) {
    if (item.type === "assistant") for (const call of item.toolCalls) used.add(call.id);
    else if (item.type === "tool-result") used.add(item.callId);
  }
  const taken = (id: string) => used.has(id) || reserved.has(id);

  const output: Item[] = [];
  let open: Window | undefined;
  const close = () => {
    if (open === undefined) return;
    const { assistant, calls, results } = open;
    const reasons = calls.map(({ position, id }, index) => {
      const result = results[index];
      return result === undefined
        ? `${callName(assistant, position)} had no id: given the id "${id}" (no result without an id follows it)`
        : `${callName(assistant, position)} had no id: paired by position with result "${result}" and given the id "${id}"`;
    });
    context.report.repair(assistant, reasons.join("; "));
    open = undefined;
  };

  for (const item of items) {
    if (makesCalls(item)) {
      close();
      if (!hasEmptyId(item)) {
        output.push(item);
        continue;
      }
      const calls: Array<{ position: number; id: string }> = [];
      // Derived from the message's id and the call's position, so the same history gives the same ids.
      const toolCalls = item.toolCalls.map((call, position) => {
        if (call.id !== "") return call;
        const id = freshId(`${item.id}_${position + 1}`, taken);
        used.add(id);
        calls.push({ position, id });
        return { ...call, id };
      });
      open = { assistant: item, calls, results: [] };
      output.push({ ...item, toolCalls });
    } else if (item.type === "user") {
      close();
      output.push(item);
    } else if (item.type === "tool-result" && item.callId === "" && open !== undefined && open.results.length < open.calls.length) {
      const { position, id } = open.calls[open.results.length]!;
      open.results.push(item.id);
      context.report.repair(item, `it had no call id: paired by position with ${callName(open.assistant, position)} of "${open.assistant.id}" and given its id "${id}"`);
      output.push({ ...item, callId: id });
    } else {
      output.push(item);
    }
  }
  close();
  return output;
}
