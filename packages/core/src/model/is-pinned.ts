// A pinned item (metadata.pinned: true) survives every compression strategy and the budget fit: it is
// never dropped, cleared, cut or summarized. When the pinned items, the newest turn and the system
// prompt cannot fit on their own, the build fails with a BudgetExceededError that names them.
import type { Item } from "./item.js";

export function isPinned(item: Item): boolean {
  return item.metadata.pinned === true;
}

/** `"p1" (120 tokens), "p2" (30 tokens)`: how an error names the pinned items that did not fit. */
export function pinnedList(pinned: ReadonlyArray<Item>, context: { countTokens(item: Item): number }): string {
  return pinned.map((item) => `"${item.id}" (${context.countTokens(item)} tokens)`).join(", ");
}
