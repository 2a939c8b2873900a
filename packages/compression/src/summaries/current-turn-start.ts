// Where the current turn starts: the newest message a person wrote (a user message, a user's
// intervention or a parent agent's message) that is sent, as core's turn groups and compression's
// protection decide it. A persisted summary never covers it or anything after it.
import { type Item, type Items, isBlank } from "@ctxpipe/core";

export interface CurrentTurnStart {
  readonly position: number;
  readonly id: string;
}

function opensSentTurn(item: Item): boolean {
  if (item.type !== "user" && item.type !== "user-intervention" && item.type !== "parent-message") return false;
  if (item.metadata.includeInContext === false) return false;
  const hasAttachments = item.type === "user" && item.attachments !== undefined && item.attachments.length > 0;
  return hasAttachments || !isBlank(item.text);
}

/** Scans back from the end, so it costs the length of the current turn, not of the history. */
export function currentTurnStart(items: Items): CurrentTurnStart | undefined {
  for (let position = items.length - 1; position >= 0; position--) {
    const item = items[position]!;
    if (opensSentTurn(item)) return { position, id: item.id };
  }
  return undefined;
}
