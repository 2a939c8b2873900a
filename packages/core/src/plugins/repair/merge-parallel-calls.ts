// Memory chunks store parallel calls as one chunk each: consecutive assistant messages that make calls
// (thinking may sit between them) are merged into the first, so all the results can follow all the calls.
import type { Item, ItemOf } from "../../model/item.js";
import type { StageContext } from "../../pipeline/stage-context.js";

type Assistant = ItemOf<"assistant">;

export function makesCalls(item: Item): item is Assistant {
  return item.type === "assistant" && item.toolCalls.length > 0;
}

function joinText(first: string, second: string): string {
  if (first.trim() === "") return second;
  if (second.trim() === "") return first;
  return `${first}\n${second}`;
}

/** The merged list, or undefined when no two call-making messages were adjacent. */
export function mergeParallelCalls(items: ReadonlyArray<Item>, context: StageContext): Item[] | undefined {
  let output: Item[] | undefined;
  let head: { position: number; assistant: Assistant; absorbed: string[] } | undefined;
  const finishHead = () => {
    if (head === undefined || head.absorbed.length === 0) return;
    context.report.repair(head.assistant, `took the parallel tool calls of ${head.absorbed.map((id) => `"${id}"`).join(", ")}, stored as separate messages`);
  };
  items.forEach((item, index) => {
    if (makesCalls(item) && head !== undefined) {
      output ??= items.slice(0, index);
      const combined: Assistant = {
        ...head.assistant,
        text: joinText(head.assistant.text, item.text),
        toolCalls: [...head.assistant.toolCalls, ...item.toolCalls],
      };
      const reasoning = [...(head.assistant.reasoning ?? []), ...(item.reasoning ?? [])];
      if (reasoning.length > 0) combined.reasoning = reasoning;
      head.assistant = combined;
      head.absorbed.push(item.id);
      output[head.position] = combined;
      context.report.merge(item, combined.id, "its tool calls joined the assistant message before it, so all results can follow all calls");
      return;
    }
    if (item.type !== "thinking") {
      finishHead();
      head = makesCalls(item) ? { position: output?.length ?? index, assistant: item, absorbed: [] } : undefined;
    }
    output?.push(item);
  });
  finishHead();
  return output;
}
