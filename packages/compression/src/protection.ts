// Which items no strategy may touch: the current loop (the newest turn the user opened, or everything
// from loopStartId), the newest minRecentMessages messages, and pinned items (metadata.pinned), which
// are never dropped, cleared, cut or summarized. A turn group that holds a pinned item is protected
// whole, so a strategy that drops whole groups never parts a pinned result from its call.
import { currentTurnOf, type Item, type Items, isPinned, type TurnGroups } from "@ctxpipe/core";

export interface Protection {
  /** Position of the first protected item; everything from here on is protected. */
  readonly from: number;
  /** Protected ids before `from`: the current loop's results that came in out of order, and pinned items. */
  readonly extra: ReadonlySet<string>;
}

/** `pinned`: the ids of the pinned items, when the caller keeps them already (else the items are searched). */
export function protectionOf(
  items: Items,
  turns: TurnGroups,
  positions: ReadonlyMap<string, number>,
  minRecentMessages: number,
  loopStartId: string | undefined,
  pinned?: ReadonlyArray<string>,
): Protection {
  let from = items.length;
  // The newest messages: stored system messages are never sent, so they do not count.
  let recent = 0;
  for (let position = items.length - 1; position >= 0 && recent < minRecentMessages; position--) {
    if (items[position]!.type !== "system") recent++;
    from = position;
  }
  const extra = new Set<string>(pinned);
  if (pinned === undefined) for (const item of items) if (isPinned(item)) extra.add(item.id);
  const loopStart = loopStartId === undefined ? undefined : positions.get(loopStartId);
  if (loopStart !== undefined) from = Math.min(from, loopStart);
  else {
    const current = currentTurnOf(turns, (id) => items[positions.get(id)!]);
    if (current !== undefined) {
      for (const id of current.itemIds) {
        const position = positions.get(id)!;
        if (id === current.itemIds[0]) from = Math.min(from, position);
        else if (position < from) extra.add(id);
      }
    }
  }
  return { from, extra };
}

export function isProtected(protection: Protection, item: Item, position: number): boolean {
  return position >= protection.from || protection.extra.has(item.id);
}
