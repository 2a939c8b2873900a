// The check of what a tap recorded, resumed from last build's walk, against a new check. Between builds
// the list grows, loses items and has items replaced by new objects, the cut moves either way, other items are
// replaced in place, and the tap records its batches again as the same runs with new ones put in
// anywhere, its window's drop as the same id array or a new one, and ids that break the check. Whatever
// happened, the kept check must answer what a new one answers, and name the same unexplained items.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item } from "../model/item.js";
import type { ReportEvent } from "./build-report.js";
import type { EventRun } from "./event-log.js";
import type { InOrder } from "./in-order.js";
import type { Items } from "./pipeline-hooks.js";
import { RecordedInOrder } from "./recorded-in-order.js";

// Items count the reads of their id: what a check reads of the list.
let idReads = 0;
const item = (id: string) => ({ get id() { idReads++; return id; }, type: "user", text: id }) as unknown as Item;
const event = (decision: string) => ({ decision }) as unknown as ReportEvent;

const changeArbitrary = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("append" as const), count: fc.integer({ min: 1, max: 6 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("new object" as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("remove" as const), at: fc.nat() }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("cut" as const), by: fc.integer({ min: -8, max: 8 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("gap" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("no gaps" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("replace" as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("unreplace" as const), at: fc.nat() }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("batch" as const), at: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat() }), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 40 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("forget batch" as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("odd run" as const), decision: fc.constantFrom("dropped", "cleared", "repaired"), id: fc.oneof(fc.nat(), fc.constant(-1)), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("drop wrong" as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("drop in runs of" as const), ids: fc.constantFrom(0, 1, 2, 3, 1000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("added" as const), id: fc.nat() }) },
);

type Change = typeof changeArbitrary extends fc.Arbitrary<infer Value> ? Value : never;

/** One build's inputs, as a tap's in-order check would get them. */
interface Build {
  readonly runs: EventRun[];
  readonly before: Items;
  readonly order: InOrder;
  readonly addedIds: ReadonlySet<string>;
  readonly replacedIds: ReadonlySet<string>;
}

/** A tap's state between builds: its items, where its window cuts, what it replaces, its batches (kept as the same runs). */
class Tap {
  items: Item[] = [];
  cut = 0;
  gaps: Array<readonly [number, number]> = [];
  replaced = new Set<number>();
  batches: EventRun[][] = [];
  odd: Array<{ run: EventRun; at: number }> = [];
  added = new Set<string>();
  dropWrong: number | undefined;
  /** 0: a run per left-out stretch; else runs of this many ids across them. */
  dropChunk = 0;
  readonly #drops = new Map<string, ReadonlyArray<string>>();
  #made = 0;
  #lastCleared = -1;

  constructor(length: number) {
    this.append(length);
  }

  append(count: number): void {
    for (let index = 0; index < count; index++) this.items.push(item(`i${this.#made++}`));
  }

  apply(change: Change): void {
    const length = this.items.length;
    switch (change.kind) {
      case "append":
        this.append(change.count);
        break;
      case "new object": {
        const at = change.at % length;
        this.items[at] = item(this.items[at]!.id);
        break;
      }
      case "remove":
        // An item edited out of the history: the later ones move up a place.
        if (length > 1) this.items.splice(change.at % length, 1);
        break;
      case "cut":
        this.cut = Math.max(0, Math.min(length, this.cut + change.by));
        break;
      case "no gaps":
        this.gaps = [];
        break;
      case "gap":
        this.gaps = [...this.gaps, [change.at % length, Math.min(length, (change.at % length) + change.length)] as const];
        break;
      case "replace":
        this.replaced.add(change.at % length);
        break;
      case "unreplace":
        this.replaced.delete([...this.replaced][change.at % Math.max(1, this.replaced.size)]!);
        break;
      case "batch": {
        // A chain's clears: mostly of older items, in list order, oldest first.
        // One run per clear, each with its own reason, as a decision batch records them.
        // Mostly of items after those cleared before, as a chain's next clears are.
        const after = change.at === undefined && this.#lastCleared + 1 < length ? this.#lastCleared + 1 : 0;
        const positions = [...new Set(change.picks.map((pick) => after + (pick % (length - after))))].sort((a, b) => a - b);
        this.#lastCleared = Math.max(this.#lastCleared, positions.at(-1)!);
        const ids = positions.map((at) => this.items[at]!.id);
        const runs = ids.map((id) => ({ ids: Object.freeze([id]), event: event("cleared") }));
        // Mostly after the earlier ones (a chain clears the oldest first), sometimes among them.
        this.batches.splice(change.at === undefined ? this.batches.length : change.at % (this.batches.length + 1), 0, runs);
        break;
      }
      case "forget batch":
        if (this.batches.length > 0) this.batches.splice(change.at % this.batches.length, 1);
        break;
      case "odd run":
        this.odd.push({ run: { ids: [change.id === -1 ? "not-an-item" : this.items[change.id % length]!.id], event: event(change.decision) }, at: change.at });
        break;
      case "drop in runs of":
        this.dropChunk = change.ids;
        break;
      case "drop wrong":
        this.dropWrong = change.at;
        break;
      case "added":
        this.added.add(change.id % 2 === 0 ? `new-${change.id}` : this.items[change.id % length]!.id);
        break;
    }
  }

  /** This build's inputs; the window's drop is last build's id array while it names the same items. */
  build(): Build {
    const before = this.items.slice();
    const left = new Array<boolean>(before.length).fill(false);
    for (let at = 0; at < this.cut; at++) left[at] = true;
    for (const [from, to] of this.gaps) for (let at = from; at < Math.min(to, before.length); at++) left[at] = true;
    const leftOut: Array<readonly [number, number]> = [];
    for (let at = 0; at < before.length; at++) {
      if (!left[at]) continue;
      const last = leftOut.at(-1);
      if (last !== undefined && last[1] === at) leftOut[leftOut.length - 1] = [last[0], at + 1];
      else leftOut.push([at, at + 1]);
    }
    // As a chain's: a cleared item still in the list is there as its placeholder.
    const cleared = new Set(this.batches.flatMap((runs) => runs.flatMap((run) => run.ids)));
    const replaced: Array<readonly [number, number]> = [];
    let position = 0;
    for (let at = 0; at < before.length; at++) {
      if (left[at]) continue;
      if (this.replaced.has(at) || cleared.has(before[at]!.id)) replaced.push([position, at]);
      position++;
    }
    // The window's drop: one run per left-out stretch, or runs of so many ids. An id array naming the
    // same items as one recorded before is that array again (recorded anew, as a window records it).
    const stretches = this.dropChunk === 0 ? leftOut.map(([from, to]) => before.slice(from, to).map((kept) => kept.id)) : chunks(leftOut.flatMap(([from, to]) => before.slice(from, to).map((kept) => kept.id)), this.dropChunk);
    if (this.dropWrong !== undefined && stretches.length > 0) {
      const stretch = stretches[this.dropWrong % stretches.length]!;
      stretch[this.dropWrong % stretch.length] = "not-left-out";
    }
    this.dropWrong = undefined;
    const drops = stretches.map((ids) => {
      const key = ids.join(" ");
      let kept = this.#drops.get(key);
      if (kept === undefined) {
        kept = Object.freeze(ids);
        this.#drops.set(key, kept);
      }
      return { ids: kept, event: event("dropped") };
    });
    const runs = this.batches.flat();
    for (const { run, at } of this.odd) runs.splice(at % (runs.length + 1), 0, run);
    this.odd = [];
    runs.push(...drops);
    const replacedIds = new Set(replaced.map(([, at]) => before[at]!.id));
    return { runs, before, order: { leftOut, inserted: [], replaced }, addedIds: new Set(this.added), replacedIds };
  }
}

function chunks(ids: string[], size: number): string[][] {
  const made: string[][] = [];
  for (let at = 0; at < ids.length; at += size) made.push(ids.slice(at, at + size));
  return made;
}

function check(memo: RecordedInOrder, build: Build): { matched: number | false; unexplained: string[][] } {
  const unexplained: string[][] = [];
  const matched = memo.accept(build.runs.slice(), build.before, build.order, build.addedIds, build.replacedIds, (ids) => unexplained.push(ids));
  return { matched, unexplained };
}

describe("RecordedInOrder kept between builds", () => {
  test("answers what a new check answers, whatever changed between builds", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.array(fc.array(changeArbitrary, { maxLength: 4 }), { minLength: 1, maxLength: 16 }), (length, builds) => {
        const tap = new Tap(length);
        const kept = new RecordedInOrder();
        for (const changes of builds) {
          for (const change of changes) tap.apply(change);
          const build = tap.build();
          expect(check(kept, build)).toEqual(check(new RecordedInOrder(), build));
        }
      }),
      { numRuns: 1500 },
    );
  });

  test("does not resume inside a left-out stretch that now ends before where it stood", () => {
    // 50 items, the oldest 40 dropped one run each: a checkpoint after 32 runs, inside the stretch.
    const tap = new Tap(50);
    tap.apply({ kind: "drop in runs of", ids: 1 });
    tap.apply({ kind: "cut", by: 40 });
    const memo = new RecordedInOrder();
    expect(check(memo, tap.build())).toEqual({ matched: 0, unexplained: [] });
    // The cut moves back to 32: the first 32 runs are the same, and the stretch ends where the checkpoint stood.
    tap.apply({ kind: "cut", by: -8 });
    const build = tap.build();
    expect(build.runs).toHaveLength(32);
    expect(check(memo, build)).toEqual(check(new RecordedInOrder(), build));
    expect(check(new RecordedInOrder(), build)).toEqual({ matched: 0, unexplained: [] });
  });

  test("resumes a chain's clears and drop without reading their ids again", () => {
    // 300 items, the oldest 200 dropped, every other of them cleared first in batches.
    const tap = new Tap(300);
    for (let batch = 0; batch < 10; batch++) tap.apply({ kind: "batch", at: batch, picks: Array.from({ length: 10 }, (_, index) => (batch * 10 + index) * 2) });
    tap.apply({ kind: "cut", by: 200 });
    const memo = new RecordedInOrder();
    const first = tap.build();
    expect(check(memo, first).matched).toBe(0);
    // The next build: one more item, a batch cleared later on; the cut moved on by four.
    tap.apply({ kind: "append", count: 1 });
    tap.apply({ kind: "batch", at: 10, picks: [200, 202] });
    tap.apply({ kind: "cut", by: 4 });
    const second = tap.build();
    idReads = 0;
    const result = check(memo, second);
    const keptReads = idReads;
    idReads = 0;
    expect(result).toEqual(check(new RecordedInOrder(), second));
    const newReads = idReads;
    // A new check reads the ids of the 204 drops and walks the dropped items for the 102 clears; the
    // kept one resumes after the first batches' runs: the new batch and the window's new drop.
    expect(newReads).toBeGreaterThan(400);
    expect(keptReads).toBeLessThan(215);
  });
});
