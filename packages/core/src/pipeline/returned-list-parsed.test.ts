// A tap may return items it made itself, not yet parsed (no defaults filled in). The check parses them
// and hands the next stages the parsed items; on a rebuild it reuses last build's check for the start
// the lists share, which must still put last build's parsed items where the tap returned its own.
import { describe, expect, test } from "vitest";
import type { Item, ItemInput } from "../model/item.js";
import type { Items, PipelinePlugin } from "./pipeline-hooks.js";
import { createPipeline } from "./pipeline.js";

describe("items a tap made itself", () => {
  test("reach the next stages parsed on every build, the same parsed objects while the tap returns the same ones", async () => {
    // Made once, returned on every build: a note after the first user message, and a replacement of the first result.
    const note = { id: "note", type: "assistant", text: "Earlier turns were shortened." } as unknown as Item;
    const shortened = { id: "t1", type: "tool-result", callId: "call_1", output: "(shortened)" } as unknown as Item;
    const handed: Items[] = [];
    const plugin: PipelinePlugin = {
      name: "shaper",
      apply({ hooks }) {
        hooks.compress.tap({ name: "shaper" }, (items) => {
          const list = items.map((item) => (item.id === "t1" ? shortened : item));
          list.splice(1, 0, note);
          return list;
        });
        hooks.filter.tap({ name: "reader" }, (items) => {
          handed.push(items);
          return undefined;
        });
      },
    };
    const pipeline = createPipeline({ plugins: [plugin] });
    const items: ItemInput[] = [];
    for (let turn = 1; turn <= 6; turn++) {
      items.push(
        { id: `u${turn}`, type: "user", text: `question ${turn}` },
        { id: `a${turn}`, type: "assistant", text: "", toolCalls: [{ id: `call_${turn}`, name: "read", arguments: "{}" }] },
        { id: `t${turn}`, type: "tool-result", callId: `call_${turn}`, output: `result ${turn}` },
        { id: `b${turn}`, type: "assistant", text: `answer ${turn}` },
      );
      await pipeline.build(items, { order: "input" });
    }
    const first = handed[0]!;
    const parsedNote = first.find((item) => item.id === "note")!;
    const parsedResult = first.find((item) => item.id === "t1")!;
    // Parsed: not the tap's objects, defaults filled in.
    expect(parsedNote).not.toBe(note);
    expect(parsedResult).not.toBe(shortened);
    expect(parsedResult).toMatchObject({ role: "tool", isError: false, output: "(shortened)" });
    for (const list of handed.slice(1)) {
      expect(list.find((item) => item.id === "note")).toBe(parsedNote);
      expect(list.find((item) => item.id === "t1")).toBe(parsedResult);
      expect(list.includes(note) || list.includes(shortened)).toBe(false);
    }
  });
});
