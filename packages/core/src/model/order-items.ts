// Puts items in conversation order: dated items are sorted by createdAt among the positions dated
// items occupy (ties keep input order); items without a date, or with one that names no instant, keep
// their position. Date-times without an offset are read as UTC, so the order does not depend on the
// machine's time zone.
import { instantOf } from "./instant-of.js";
import type { Item } from "./item.js";

// Items are immutable, so each one's instant is parsed once, not on every rebuild.
const instants = new WeakMap<Item, number>();

/** The instant of the item's createdAt in epoch milliseconds; NaN when it names none. */
export function timeOf(item: Item, createdAt: string): number {
  let time = instants.get(item);
  if (time === undefined) {
    time = instantOf(createdAt);
    instants.set(item, time);
  }
  return time;
}

export function orderItems(items: ReadonlyArray<Item>): Item[] {
  const datedSlots: number[] = [];
  const dated: Array<{ item: Item; time: number; position: number }> = [];
  items.forEach((item, position) => {
    if (item.createdAt === undefined) return;
    const time = timeOf(item, item.createdAt);
    if (Number.isNaN(time)) return;
    datedSlots.push(position);
    dated.push({ item, time, position });
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
