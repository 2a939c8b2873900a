// The text the inspector previews for an item. An assistant message's text and its tool calls are set
// apart ("text · read_file({…}) · grep({…})"), so they do not run together as in the counted text.
import { type Item, itemText } from "@ctxpipe/core";

/** Between an assistant's text and each of its tool calls. */
export const PREVIEW_SEPARATOR = " · ";

export function itemPreview(item: Item): string {
  if (item.type !== "assistant" || item.toolCalls.length === 0) return itemText(item);
  const calls = item.toolCalls.map((call) => `${call.name}(${call.arguments})`);
  return (item.text.trim() === "" ? calls : [item.text, ...calls]).join(PREVIEW_SEPARATOR);
}
