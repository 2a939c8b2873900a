// A call-making assistant message stored twice within one turn (a retried write under a new id) is a
// copy: same text, same calls. It is dropped, and its results with it as second results. A message
// that repeats calls after the user spoke again is a new request and stays (local models often
// number their calls "call_0" every turn); rewrite-call-ids keeps the two apart.
import type { Item, ItemOf } from "../../model/item.js";
import type { StageContext } from "../../pipeline/stage-context.js";
import { makesCalls } from "./merge-parallel-calls.js";

type Assistant = ItemOf<"assistant">;

function sameCalls(left: Assistant, right: Assistant): boolean {
  return (
    left.text === right.text &&
    left.toolCalls.length === right.toolCalls.length &&
    left.toolCalls.every((call, index) => {
      const other = right.toolCalls[index]!;
      return call.id === other.id && call.name === other.name && call.arguments === other.arguments;
    })
  );
}

export function dropCopiedMessages(items: ReadonlyArray<Item>, context: StageContext): Item[] | undefined {
  let output: Item[] | undefined;
  // The last call-making message of the current turn: only its results and thinking came after it.
  let original: Assistant | undefined;
  items.forEach((item, index) => {
    if (makesCalls(item) && original !== undefined && sameCalls(original, item)) {
      output ??= items.slice(0, index);
      context.report.drop(item, `a second copy of assistant message "${original.id}" (same text and calls)`);
      return;
    }
    if (makesCalls(item)) original = item;
    else if (item.type !== "tool-result" && item.type !== "thinking") original = undefined;
    output?.push(item);
  });
  return output;
}
