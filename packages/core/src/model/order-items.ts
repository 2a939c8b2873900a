// Puts items in conversation order: dated items are sorted by createdAt among the positions dated
// items occupy (ties keep input order); items without a date keep their position.
import type { Item } from "./item.js";

export function orderItems(items: ReadonlyArray<Item>): Item[] {
  const datedSlots: number[] = [];
  const dated: Array<{ item: Item; time: number; position: number }> = [];
  items.forEach((item, position) => {
    if (item.createdAt === undefined) return;
    datedSlots.push(position);
    dated.push({ item, time: Date.parse(item.createdAt), position });
  });
  let sorted = true;
  for (let index = 1; index < dated.length; index++) {
    if (dated[index]!.time < dated[index - 1]!.time) {
      sorted = false;
      break;
    }
  }
  if (sorted) return [...items];
  // Array.prototype.sort is stable, so equal times keep their input order.
  dated.sort((left, right) => left.time - right.time || left.position - right.position);
  const ordered = [...items];
  datedSlots.forEach((slot, index) => {
    ordered[slot] = dated[index]!.item;
  });
  return ordered;
}
