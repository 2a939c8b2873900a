// The text an item contributes to a request, used to count its tokens whatever the renderer.
import type { Item } from "./item.js";

export function itemText(item: Item): string {
  switch (item.type) {
    case "assistant": {
      if (item.toolCalls.length === 0) return item.text;
      const calls = item.toolCalls.map((call) => `${call.name}${call.arguments}`).join("");
      return item.text + calls;
    }
    case "tool-result":
      return item.output;
    default:
      return item.text;
  }
}
