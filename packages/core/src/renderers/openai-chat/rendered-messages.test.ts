// The messages kept from one render to the next must give what a new render gives, whatever the
// renders before did: lists that grew, changed in place or shrank, and a render that threw half-way
// (a tokenizer that failed on one message).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item } from "../../model/item.js";
import type { OpenAIChatMessage } from "./openai-chat-request.js";
import { type MessageSource, RenderedMessages } from "./rendered-messages.js";

const item = (id: string, text: string): Item => ({ id, type: "user", role: "user", text, metadata: {} });

/** A source whose messages are made from the item's text; it throws on an item whose text says so, and gives none for a blank one. */
const source: MessageSource = {
  key: ["test"],
  message(given) {
    const text = (given as { text: string }).text;
    if (text === "throw") throw new Error("the tokenizer failed");
    if (text === "") return { reason: "blank" };
    return { message: { role: "user", content: text } as OpenAIChatMessage, tokens: text.length };
  },
};

const render = (rendered: RenderedMessages, items: ReadonlyArray<Item>) => {
  try {
    const list = rendered.render(items, source);
    return { messages: list.messages, tokens: list.tokens, totals: list.tokensBeforeMessage, dropped: list.dropped.map((entry) => entry.item.id), index: [...list.messageIndexById] };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

describe("RenderedMessages", () => {
  test("a kept renderer gives what a new one gives, after growth, edits, cuts and renders that threw (property)", () => {
    const texts = fc.constantFrom("a", "bb", "ccc", "", "throw");
    fc.assert(
      fc.property(fc.array(fc.array(fc.tuple(fc.nat({ max: 12 }), texts), { maxLength: 14 }), { minLength: 1, maxLength: 8 }), (lists) => {
        // Items are kept objects per (id, text), as the pipeline hands the same objects back.
        const made = new Map<string, Item>();
        const itemOf = (id: number, text: string) => {
          const key = `${id}:${text}`;
          let found = made.get(key);
          if (found === undefined) {
            found = item(`i${id}`, text);
            made.set(key, found);
          }
          return found;
        };
        const kept = new RenderedMessages();
        for (const list of lists) {
          const seen = new Set<number>();
          const items = list.filter(([id]) => !seen.has(id) && seen.add(id)).map(([id, text]) => itemOf(id, text));
          expect(render(kept, items)).toEqual(render(new RenderedMessages(), items));
        }
      }),
      { numRuns: 2000 },
    );
  });

  test("a render that throws past the shared part leaves nothing of the failed list to the next render", () => {
    const kept = new RenderedMessages();
    const first = Array.from({ length: 6 }, (_, index) => item(`i${index}`, "ok"));
    render(kept, first);
    const edited = [...first.slice(0, 2), item("i2", "edited"), ...first.slice(3), item("i6", "more"), item("i7", "throw")];
    expect(render(kept, edited)).toEqual({ error: "the tokenizer failed" });
    expect(render(kept, first)).toEqual(render(new RenderedMessages(), first));
  });
});
