// Where the conversation starts and ends. Providers want the first turn from the user (ANT-004,
// GEM-006/015, Bedrock) and the last from the user or a tool (OAI-017, ANT-015, GEM-016: newer models
// reject assistant prefill). A history that starts with the assistant gets a short user turn in front;
// one that ends with the assistant (an answer, or a persisted error) gets a user turn asking to continue.
// Thinking is the assistant's own reasoning, not a turn, so it is looked through.
import { frozenMadeItem } from "../../model/frozen-item.js";
import type { Item, ItemOf } from "../../model/item.js";
import { notePrefix } from "../../pipeline/list-lineage.js";
import type { StageContext } from "../../pipeline/stage-context.js";

export interface EdgeOptions {
  readonly leadingUserText: string;
  readonly trailingAssistant: "continue" | "keep";
  readonly continueText: string;
}

export const LEADING_USER_ID = "ctxpipe:conversation-start";
export const CONTINUE_ID = "ctxpipe:continue";

function isTurn(item: Item): boolean {
  return item.role !== "system" && item.type !== "thinking";
}

// One item object per id and text, as the tap's check keeps it: the list this stage returns is handed
// on without a copy, and the item's count and message are reused from build to build.
const userItems = new Map<string, ItemOf<"user">>();

function userItem(id: string, text: string): ItemOf<"user"> {
  const key = `${id}\u0000${text}`;
  let item = userItems.get(key);
  if (item === undefined) {
    item = frozenMadeItem<ItemOf<"user">>({ id, type: "user", role: "user", text, metadata: {} });
    // Texts come from a plugin's options: a handful per process, unless options are made per build.
    if (userItems.size >= 64) userItems.clear();
    userItems.set(key, item);
  }
  return item;
}

export function repairEdges(items: ReadonlyArray<Item>, context: StageContext, options: EdgeOptions): Item[] | undefined {
  const first = items.findIndex(isTurn);
  if (first === -1) return undefined;

  const opener = items[first]!;
  let lead: Item | undefined;
  if (opener.role === "assistant") {
    lead = userItem(LEADING_USER_ID, options.leadingUserText);
    context.report.synthesize(lead, `the conversation started with ${opener.type} "${opener.id}"; providers want a user turn first`);
  }

  // The last message: a summary or system note after the conversation's first turn counts too, since
  // on OpenAI it stays a system message, which must not end the request either (OAI-017).
  let last = items.length - 1;
  while (last > first && items[last]!.type === "thinking") last--;
  const closer = items[last]!;
  let next: Item | undefined;
  if (options.trailingAssistant === "continue" && (closer.role === "assistant" || (closer.role === "system" && last > first))) {
    next = userItem(CONTINUE_ID, options.continueText);
    context.report.synthesize(next, `the conversation ended with ${closer.type} "${closer.id}"; providers want the last turn from the user`);
  }
  if (lead === undefined && next === undefined) return undefined;
  // One array of the final length (a spread walks the whole history through an iterator, and a push
  // after it grows the array again), noted as starting with the items it was given up to the lead.
  const output = lead === undefined ? items.concat(next!) : items.slice(0, first).concat(lead, items.slice(first), next === undefined ? [] : [next]);
  notePrefix(output, items, lead === undefined ? items.length : first);
  return output;
}
