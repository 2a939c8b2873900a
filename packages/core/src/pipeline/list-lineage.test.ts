import fc from "fast-check";
import { describe, expect, onTestFinished, test } from "vitest";
import type { Item, ItemInput } from "../model/item.js";
import { notedPrefix, notePrefix, sharedPrefixLength } from "./list-lineage.js";
import type { Items, PipelinePlugin } from "./pipeline-hooks.js";
import { createPipeline } from "./pipeline.js";

/** A list whose index reads are counted. */
function counted<T>(values: T[]): { list: T[]; reads: () => number } {
  let reads = 0;
  const list = new Proxy(values, {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { list, reads: () => reads };
}

describe("sharedPrefixLength", () => {
  test("is the number of first items the two lists share, whatever was noted of lists made from each other (property)", () => {
    const pool = Array.from({ length: 6 }, (_, index) => ({ index }));
    const listArbitrary = fc.array(fc.nat({ max: 5 }).map((index) => pool[index]!), { maxLength: 12 });
    fc.assert(
      fc.property(listArbitrary, fc.array(fc.nat({ max: 5 }).map((index) => pool[index]!), { maxLength: 6 }), fc.nat({ max: 12 }), (previous, tail, kept) => {
        // A list made from `previous`: its first `kept` items, then others.
        const shared = Math.min(kept, previous.length);
        const next = [...previous.slice(0, shared), ...tail];
        notePrefix(next, previous, shared);
        let expected = 0;
        while (expected < Math.min(next.length, previous.length) && next[expected] === previous[expected]) expected++;
        expect(sharedPrefixLength(next, previous)).toBe(expected);
        // Nothing was noted of the lists the other way round, or of a copy.
        expect(sharedPrefixLength(previous, next)).toBe(expected);
        expect(sharedPrefixLength(next, previous.slice())).toBe(expected);
      }),
    );
  });

  test("is exact over lists made from lists made from others, whatever was noted (property)", () => {
    const pool = Array.from({ length: 4 }, (_, index) => ({ index }));
    // Each step makes a list from one or two earlier lists: the first `kept` items of one, then others.
    const stepArbitrary = fc.record({ from: fc.nat(), also: fc.option(fc.nat(), { nil: undefined }), kept: fc.nat({ max: 10 }), tail: fc.array(fc.nat({ max: 3 }), { maxLength: 4 }) });
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 3 }), { maxLength: 10 }), fc.array(stepArbitrary, { minLength: 1, maxLength: 12 }), (first, steps) => {
        const lists: Array<Array<{ index: number }>> = [first.map((index) => pool[index]!)];
        for (const step of steps) {
          const base = lists[step.from % lists.length]!;
          const list = [...base.slice(0, step.kept), ...step.tail.map((index) => pool[index]!)];
          notePrefix(list, base, Math.min(step.kept, base.length));
          if (step.also !== undefined) {
            // A second list it was made from: noted with what the two really share.
            const other = lists[step.also % lists.length]!;
            let shared = 0;
            while (shared < Math.min(list.length, other.length) && list[shared] === other[shared]) shared++;
            notePrefix(list, other, shared);
          }
          lists.push(list);
        }
        for (const next of lists) {
          for (const previous of lists) {
            let expected = 0;
            while (expected < Math.min(next.length, previous.length) && next[expected] === previous[expected]) expected++;
            expect(sharedPrefixLength(next, previous)).toBe(expected);
            expect(notedPrefix(next, previous)).toBeLessThanOrEqual(expected);
          }
        }
      }),
    );
  });

  test("knows what two lists made from one list share, and a list made from one made from the other", () => {
    const objects = Array.from({ length: 100 }, (_, index) => ({ index }));
    const base = objects.slice(0, 90);
    const left = [...base.slice(0, 80), { index: -1 }];
    const right = [...base.slice(0, 85), { index: -2 }];
    notePrefix(left, base, 80);
    notePrefix(right, base, 85);
    expect(notedPrefix(left, right)).toBe(80);
    expect(notedPrefix(right, left)).toBe(80);
    // Made from `left`, which was made from `base`: it shares with `base`, and with `right` through it.
    const grandchild = [...left.slice(0, 70), { index: -3 }];
    notePrefix(grandchild, left, 70);
    expect(notedPrefix(grandchild, base)).toBe(70);
    expect(notedPrefix(grandchild, right)).toBe(70);
    // Nothing noted between unrelated lists.
    expect(notedPrefix(left, objects.slice())).toBe(0);
  });

  test("reads only past what was noted of a list made from the other", () => {
    // The tests' check of every note reads the lists: off for this count.
    const checked = Symbol.for("ctxpipe.checkListLineage");
    const checking = (globalThis as Record<symbol, unknown>)[checked];
    (globalThis as Record<symbol, unknown>)[checked] = false;
    onTestFinished(() => {
      (globalThis as Record<symbol, unknown>)[checked] = checking;
    });
    const objects = Array.from({ length: 1_000 }, (_, index) => ({ index }));
    const previous = counted(objects.slice());
    const next = counted([...objects.slice(0, 995), { index: -1 }]);
    notePrefix(next.list, previous.list, 995);
    expect(sharedPrefixLength(next.list, previous.list)).toBe(995);
    // The item at 995 is read in both lists, and nothing before it.
    expect(next.reads()).toBe(1);
    expect(previous.reads()).toBe(1);
    // Between lists that were not made from each other, every shared item is read.
    const other = counted(objects.slice());
    expect(sharedPrefixLength(next.list, other.list)).toBe(995);
    expect(other.reads()).toBe(996);
  });
});

describe("the tests' check of what is noted", () => {
  test("is on, and fails a note that claims more than the lists share, or a list changed since", () => {
    expect((globalThis as Record<symbol, unknown>)[Symbol.for("ctxpipe.checkListLineage")]).toBe(true);
    const objects = Array.from({ length: 10 }, (_, index) => ({ index }));
    const previous = objects.slice();
    expect(() => notePrefix([...objects.slice(0, 5), { index: -1 }], previous, 6)).toThrow(/sharing 6 first items with another, but differs at 5/);
    const next = objects.slice(0, 8);
    notePrefix(next, previous, 8);
    next[3] = { index: -2 };
    expect(() => sharedPrefixLength(next, previous)).toThrow(/differs at 3/);
  });
});

describe("the lists stages are handed", () => {
  const turn = (index: number): ItemInput[] => [
    { id: `u${index}`, type: "user", text: `question ${index}` },
    { id: `a${index}`, type: "assistant", text: "", toolCalls: [{ id: `call_${index}`, name: "read", arguments: "{}" }] },
    { id: `t${index}`, type: "tool-result", callId: `call_${index}`, output: `result ${index}` },
    { id: `b${index}`, type: "assistant", text: `answer ${index}` },
  ];

  /** Records the list each stage hook is handed, per build. */
  function recorder(seen: Map<string, Items[]>): PipelinePlugin {
    return {
      name: "recorder",
      apply({ hooks }) {
        for (const [label, hook] of [
          ["compress", hooks.compress],
          ["filter", hooks.filter],
          ["repair-orphans", hooks.repairOrphans],
          ["insert-system", hooks.insertSystem],
        ] as const) {
          hook.tap({ name: "recorder", stage: 1_000 }, (items) => {
            const lists = seen.get(label) ?? [];
            lists.push(items);
            seen.set(label, lists);
            return undefined;
          });
        }
        // A tap that returns a list every build, in order: the check's list is handed to the later stages.
        hooks.filter.tap({ name: "shaper" }, (items) => items.filter((item) => item.id !== "b1"));
        // One that changes the list every other build (as a repair does while a call waits for its
        // result): the next stage is handed its list one build and the filter's the next.
        let build = 0;
        hooks.repairOrphans.tap({ name: "sometimes" }, (items) => (++build % 2 === 0 ? [...items.slice(0, -1), { id: `note${build}`, type: "user", text: "noted" } as unknown as Item, items.at(-1)!] : undefined));
        // One that returns the list it was given: the same list is handed on.
        hooks.repairOrphans.tap({ name: "as-is" }, (items) => items);
      },
    };
  }

  test("each starts as last build's did, and says so, whichever tap made it: a later stage reads only the items past that", async () => {
    const seen = new Map<string, Items[]>();
    const pipeline = createPipeline({ plugins: [recorder(seen)] });
    const items: ItemInput[] = [];
    for (let index = 1; index <= 40; index++) {
      items.push(...turn(index));
      await pipeline.build(items, { order: "input", system: "Be brief." });
    }
    expect([...seen.keys()].sort()).toEqual(["compress", "filter", "insert-system", "repair-orphans"]);
    for (const [label, lists] of seen) {
      for (let build = 2; build < lists.length; build++) {
        const previous = lists[build - 1]!;
        const next = lists[build]!;
        let shared = 0;
        while (shared < Math.min(next.length, previous.length) && next[shared] === previous[shared]) shared++;
        // Everything but the last turn's answer (the request ended on it last build), at least.
        expect(shared, `${label}, build ${build + 1}`).toBeGreaterThan(previous.length - 3);
        expect(notedPrefix(next, previous), `${label}, build ${build + 1}`).toBeGreaterThan(previous.length - 3);
        expect(notedPrefix(next, previous)).toBeLessThanOrEqual(shared);
      }
    }
  });

  test("a list its tap noted is handed on as it is, not copied, unless the check must put a parsed item into it", async () => {
    // A noted list of parsed, frozen items; then the same with a new item the check must parse.
    let build = 0;
    let last: { readonly given: Items; readonly made: Items } | undefined;
    const raw = { id: "raw", type: "user", text: "not parsed yet" } as unknown as Item;
    const { plugin, returned, handed } = filterTapAndReader((items) => {
      build++;
      const made = build < 4 ? items.slice(0, -1).concat(items.at(-1)!) : [...items, raw];
      if (last !== undefined) notePrefix(made, last.made, Math.min(sharedPrefixLength(items, last.given), last.made.length));
      else notePrefix(made, items, items.length);
      last = { given: items, made };
      return made;
    });
    const pipeline = createPipeline({ plugins: [plugin] });
    const items: ItemInput[] = [];
    for (let index = 1; index <= 5; index++) {
      items.push(...turn(index));
      await pipeline.build(items, { order: "input" });
    }
    for (let index = 0; index < 3; index++) expect(handed[index]).toBe(returned[index]);
    // A new item to parse: the tap's list is copied, and left as the tap made it.
    expect(handed[3]).not.toBe(returned[3]);
    expect(returned[3]!.at(-1)).toBe(raw);
    expect(handed[3]!.at(-1)).not.toBe(raw);
    expect(handed[3]!.at(-1)).toMatchObject({ id: "raw", role: "user" });
  });

  test("a list its tap did not note is copied: the tap may change its array later", async () => {
    const { plugin, returned, handed } = filterTapAndReader((items) => items.slice());
    const pipeline = createPipeline({ plugins: [plugin] });
    await pipeline.build(turn(1), { order: "input" });
    expect(handed[0]).not.toBe(returned[0]);
    expect(handed[0]).toEqual(returned[0]);
  });
});

/** A filter tap that makes its list with `make`, and a later one that records the list it is handed. */
function filterTapAndReader(make: (items: Items) => Items): { plugin: PipelinePlugin; returned: Items[]; handed: Items[] } {
  const returned: Items[] = [];
  const handed: Items[] = [];
  const plugin: PipelinePlugin = {
    name: "maker",
    apply({ hooks }) {
      hooks.filter.tap({ name: "maker" }, (items) => {
        const made = make(items);
        returned.push(made);
        return made;
      });
      hooks.filter.tap({ name: "reader", stage: 1_000 }, (items) => {
        handed.push(items);
        return undefined;
      });
    },
  };
  return { plugin, returned, handed };
}
