// Which items a summary in the list stands in for, so a repair can say "its call was summarized"
// rather than "its call is missing". Computed only when a repair needs an explanation.
import type { Item } from "../../model/item.js";

export function summaryCoverage(items: ReadonlyArray<Item>, inputItems: ReadonlyArray<Item>): Map<string, string> {
  const coveredBy = new Map<string, string>();
  let positions: Map<string, number> | undefined;
  for (const item of items) {
    if (item.type !== "summary") continue;
    for (const id of item.coveredIds) coveredBy.set(id, item.id);
    if (item.fromId === undefined || item.toId === undefined) continue;
    positions ??= new Map(inputItems.map((input, index) => [input.id, index]));
    const from = positions.get(item.fromId);
    const to = positions.get(item.toId);
    if (from === undefined || to === undefined) continue;
    for (let index = from; index <= to; index++) coveredBy.set(inputItems[index]!.id, item.id);
  }
  return coveredBy;
}
