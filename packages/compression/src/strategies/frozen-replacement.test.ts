import { createPipeline, type Item, type ItemInput, type Items, isDeepFrozen, type PipelinePlugin } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { CompressionPlugin } from "../compression-plugin.js";
import { frozenReplacement } from "./frozen-replacement.js";

const words = (count: number, tag: string) => Array.from({ length: count }, (_, index) => `${tag}${index}`).join(" ");

/** Agent turns whose results are long, none of them frozen (records a caller built in memory), each with a metadata object. */
function history(turns: number): ItemInput[] {
  return Array.from({ length: turns }, (_, index) => {
    const turn = index + 1;
    return [
      { id: `u${turn}`, type: "user", text: `question ${turn}`, metadata: { source: "chat" } },
      { id: `c${turn}`, type: "assistant", text: "", toolCalls: [{ id: `call_${turn}`, name: "read_file", arguments: `{"n":${turn}}` }] },
      { id: `t${turn}`, type: "tool-result", callId: `call_${turn}`, toolName: "read_file", output: words(400, `w${turn}_`), metadata: { tags: ["io"] } },
      { id: `a${turn}`, type: "assistant", text: `answer ${turn}` },
    ] as ItemInput[];
  }).flat();
}

/** A plugin whose filter tap records the list the filter stage is given (the compress stage's checked output). */
function filterInput(seen: Items[]): PipelinePlugin {
  return {
    name: "filter-input",
    apply({ hooks }) {
      hooks.filter.tap({ name: "filter-input" }, (items) => {
        seen.push(items);
        return undefined;
      });
    },
  };
}

describe("frozenReplacement", () => {
  test("makes the item with its changes frozen through and through, copying what the caller did not freeze", () => {
    const metadata = { tags: ["io"], nested: { depth: 1 } };
    const item = { id: "t1", type: "tool-result", callId: "call_1", toolName: "read_file", output: "long", metadata } as unknown as Item;
    const made = frozenReplacement(item, { output: "short" } as Partial<Item>);
    expect(isDeepFrozen(made)).toBe(true);
    expect(made).toEqual({ ...item, output: "short" });
    // The same keys in the same order: parsing it gives the same data, so the check keeps it as it is.
    expect(Object.keys(made)).toEqual(Object.keys(item));
    // Nothing of the caller's was frozen under it.
    expect(Object.isFrozen(metadata) || Object.isFrozen(metadata.tags) || Object.isFrozen(metadata.nested)).toBe(false);
    const frozenMetadata = Object.freeze({ source: "kept" });
    const sharing = frozenReplacement({ ...item, metadata: frozenMetadata } as Item, { output: "short" } as Partial<Item>);
    expect((sharing as { metadata?: unknown }).metadata).toBe(frozenMetadata);
  });

  test("leaves a value that is not plain data as it is (the replacement is then not deep-frozen)", () => {
    const when = new Date(0);
    const item = { id: "t1", type: "tool-result", callId: "call_1", output: "long", metadata: { when } } as unknown as Item;
    const made = frozenReplacement(item, { output: "short" } as Partial<Item>);
    expect((made as unknown as { metadata: unknown }).metadata).toBe(item.metadata);
    expect(Object.isFrozen(made)).toBe(true);
    expect(isDeepFrozen(made)).toBe(false);
  });

  for (const [name, settings] of [
    ["clear-tool-results", { type: "clear-tool-results", keepRecent: 1, clearAtLeast: 0 }],
    ["truncate-tool-results", { type: "truncate-tool-results", maxTokensPerResult: 128 }],
  ] as const) {
    test(`${name}: the next stage is handed the strategy's own objects, the same build after build, for items that were not frozen`, async () => {
      const seen: Items[] = [];
      const pipeline = createPipeline({ plugins: [new CompressionPlugin({ strategies: [settings], tokenBudget: 2_000, minRecentMessages: 0 }), filterInput(seen)] });
      const items = history(12);
      const byBuild: Array<Map<string, Item>> = [];
      for (const build of [0, 1]) {
        if (build === 1) items.push(...history(13).slice(48));
        seen.length = 0;
        await pipeline.build(items, { tokenizer: wordTokenizer, order: "input" });
        const outputById = new Map(items.map((item) => [item.id, (item as { output?: string }).output]));
        // The filter stage is given the compress stage's checked output (and, for offloaded originals,
        // the later stages' view of the uncompressed list): a replacement in it is the strategy's own
        // object, deep-frozen, not a parsed copy (which would not be frozen).
        const replaced = new Map<string, Item>();
        for (const list of seen) {
          for (const item of list) {
            if (item.type !== "tool-result" || outputById.get(item.id) === undefined || item.output === outputById.get(item.id)) continue;
            expect(isDeepFrozen(item)).toBe(true);
            const other = replaced.get(item.id);
            if (other !== undefined) expect(item).toBe(other);
            replaced.set(item.id, item);
          }
        }
        expect(replaced.size).toBeGreaterThan(0);
        byBuild.push(replaced);
      }
      // What the first build replaced and the second replaced the same way is the same object: the
      // second build finds it unchanged.
      let same = 0;
      for (const [id, item] of byBuild[1]!) {
        const before = byBuild[0]!.get(id);
        if (before === undefined || (before as { output: string }).output !== (item as { output: string }).output) continue;
        expect(item).toBe(before);
        same++;
      }
      expect(same).toBeGreaterThan(0);
    });
  }
});
