// The check of what a stage tap returned has a fast path for lists kept in order and a full check for
// the rest; both must tell the report the same thing. Here a compress tap leaves items out, replaces
// some and adds others, and says why for some of them in every way a tap can (a drop each, one run for
// many, a clear before a drop, a clear alone, decisions out of list order, nothing), over builds of a
// growing history with the pipeline kept. Each item's compress-stage history must be what the rule
// says: the tap's own decisions in the order made, then, for an item it said nothing about, the
// pipeline's "without a recorded reason" decision (dropped, changed or added).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item, ItemInput } from "../model/item.js";
import type { PipelinePlugin } from "./pipeline-hooks.js";
import { recordDecisionRun } from "./decision-batch.js";
import { createPipeline } from "./pipeline.js";

type LeftOut = "drop" | "run" | "clear-then-drop" | "clear-only" | "silent";
type Fate = { readonly kind: "keep" } | { readonly kind: "left-out"; readonly how: LeftOut } | { readonly kind: "replace"; readonly said: boolean } | { readonly kind: "insert-after"; readonly said: boolean };

const fateArbitrary: fc.Arbitrary<Fate> = fc.oneof(
  fc.constant<Fate>({ kind: "keep" }),
  fc.constant<Fate>({ kind: "keep" }),
  fc.constantFrom<LeftOut>("drop", "run", "clear-then-drop", "clear-only", "silent").map((how): Fate => ({ kind: "left-out", how })),
  fc.boolean().map((said): Fate => ({ kind: "replace", said })),
  fc.boolean().map((said): Fate => ({ kind: "insert-after", said })),
);

const TAP = "Shaper";
const POOL = 16;

interface Expected {
  readonly decision: string;
  readonly reason: string;
}

describe("what a compress tap returned, kept in order or not", () => {
  test("each item's history is the tap's decisions, then the pipeline's for what it did not explain (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fateArbitrary, { minLength: POOL, maxLength: POOL }),
        fc.array(fc.integer({ min: 1, max: POOL }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (fates, lengths, reversed) => {
          const pool: ItemInput[] = Array.from({ length: POOL }, (_, index) => ({ id: `i${index}`, type: "user", text: `message ${index}` }));
          // The tap keeps its own objects from build to build, as a strategy keeps its placeholders.
          const made = new Map<string, Item>();
          const own = (id: string, make: () => Item) => {
            let found = made.get(id);
            if (found === undefined) {
              found = make();
              made.set(id, found);
            }
            return found;
          };
          let expected = new Map<string, Expected[]>();
          const shaper: PipelinePlugin = {
            name: TAP,
            apply(host) {
              host.hooks.compress.tap({ name: TAP }, (items, context) => {
                expected = new Map();
                const note = (id: string, decision: string, reason: string) => expected.set(id, [...(expected.get(id) ?? []), { decision, reason }]);
                const returned: Item[] = [];
                const said: Array<() => void> = [];
                const runIds: string[] = [];
                for (const item of items) {
                  const fate = fates[Number(item.id.slice(1))] ?? { kind: "keep" };
                  if (fate.kind === "keep") returned.push(item);
                  else if (fate.kind === "replace") {
                    returned.push(own(item.id, () => ({ ...item, text: `${item.id} (cleared)` }) as Item));
                    if (fate.said) said.push(() => {
                      context.report.clear(item, "cleared");
                      note(item.id, "cleared", "cleared");
                    });
                    else note(item.id, "repaired", `changed by ${TAP} without a recorded reason`);
                  } else if (fate.kind === "insert-after") {
                    returned.push(item);
                    const added = own(`${item.id}-added`, () => ({ id: `${item.id}-added`, type: "user", role: "user", text: "added", metadata: {} }) as Item);
                    returned.push(added);
                    if (fate.said) said.push(() => {
                      context.report.synthesize(added, "added");
                      note(added.id, "synthesized", "added");
                    });
                    else note(added.id, "synthesized", `added by ${TAP} without a recorded reason`);
                  } else if (fate.how === "run") runIds.push(item.id);
                  else if (fate.how === "silent") note(item.id, "dropped", `removed by ${TAP} without a recorded reason`);
                  else {
                    if (fate.how !== "drop") said.push(() => {
                      context.report.clear(item, "cleared first");
                      note(item.id, "cleared", "cleared first");
                    });
                    if (fate.how !== "clear-only") said.push(() => {
                      context.report.drop(item, "dropped");
                      note(item.id, "dropped", "dropped");
                    });
                  }
                }
                // The pipeline's own decisions come after the tap's; note them after its decisions.
                const implicit = expected;
                expected = new Map();
                for (const record of reversed ? said.reverse() : said) record();
                if (runIds.length > 0) {
                  recordDecisionRun(context, TAP, { decision: "dropped", ids: runIds, reason: "one run" });
                  for (const id of runIds) note(id, "dropped", "one run");
                }
                for (const [id, events] of implicit) for (const event of events) note(id, event.decision, event.reason);
                return returned;
              });
            },
          };
          const pipeline = createPipeline({ plugins: [shaper] });
          let length = 0;
          for (const grow of lengths) {
            length = Math.min(POOL, length + grow);
            // The newest message stays, so there is always something to send.
            const result = await pipeline.build([...pool.slice(0, length), { id: `newest-${length}`, type: "user", text: "the newest message" }]);
            const histories = new Map<string, Expected[]>();
            for (const entry of result.report.allEntries) {
              const events = entry.history.filter((event) => event.stage === "compress").map((event) => ({ decision: event.decision, reason: event.reason }));
              if (events.length > 0) histories.set(entry.id, events);
            }
            expect(histories).toEqual(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
