import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ReportEvent } from "./build-report.js";
import { EventLog, eventsIn } from "./event-log.js";

const IDS = Array.from({ length: 300 }, (_, index) => `item-${index}`);

/** Runs of one id, of a few, and of hundreds (a window's drop), frozen or not, some holding an id twice. */
const runArbitrary = fc.record({
  ids: fc.oneof(fc.array(fc.constantFrom(...IDS), { minLength: 1, maxLength: 3 }), fc.uniqueArray(fc.constantFrom(...IDS), { minLength: 65, maxLength: 300 }), fc.array(fc.constantFrom(...IDS.slice(0, 80)), { minLength: 65, maxLength: 200 })),
  frozen: fc.boolean(),
  reason: fc.constantFrom("one", "two"),
});

describe("eventsIn", () => {
  test("gives each wanted id its events in the order recorded, as reading every id of every run does", () => {
    fc.assert(
      fc.property(fc.array(runArbitrary, { maxLength: 8 }), fc.uniqueArray(fc.constantFrom(...IDS), { maxLength: 12 }), fc.nat({ max: 3 }), (runs, wanted, asks) => {
        const log = new EventLog();
        for (const run of runs) {
          const event: ReportEvent = { decision: "dropped", stage: "compress", plugin: "Test", reason: run.reason };
          log.add(run.frozen ? Object.freeze([...run.ids]) : [...run.ids], event);
        }
        const expected = new Map<string, ReportEvent[]>();
        for (const run of log.snapshot().runs) for (const id of run.ids) if (wanted.includes(id)) expected.set(id, [...(expected.get(id) ?? []), run.event]);
        // Asked again: the sets made for frozen runs the first time answer the next.
        for (let ask = 0; ask <= asks; ask++) expect(eventsIn(log.snapshot(), new Set(wanted))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  test("a snapshot keeps the runs it was taken with while the log goes on", () => {
    const log = new EventLog();
    const event: ReportEvent = { decision: "dropped", stage: "render", plugin: "Test", reason: "left out" };
    log.add(["a"], event);
    const snapshot = log.snapshot();
    log.add(["a"], event);
    log.remove((recorded) => recorded.stage === "render");
    expect([eventsIn(snapshot, new Set(["a"])).get("a"), log.eventsOf(new Set(["a"])).get("a")]).toEqual([[event], undefined]);
  });
});
