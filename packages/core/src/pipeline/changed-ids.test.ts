import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ReportEvent } from "./build-report.js";
import { changedIds } from "./changed-ids.js";
import type { EventRun, LogSnapshot } from "./event-log.js";

const IDS = ["a", "b", "c", "d", "e"];
const event = (reason: string): ReportEvent => ({ decision: "dropped", stage: "compress", plugin: "Test", reason });
const runArbitrary = fc.record({ ids: fc.array(fc.constantFrom(...IDS), { minLength: 1, maxLength: 5 }), reason: fc.constantFrom("one", "two", "three") });
// Events count the same when their reasons start alike ("one" and "one!" do), as a window's drop with a new request size does.
const same = (left: ReportEvent, right: ReportEvent) => left.reason.replace("!", "") === right.reason.replace("!", "");

/** Each id's events as `same` sees them. */
function histories(log: LogSnapshot): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  for (const run of log.runs.slice(0, log.length)) for (const id of run.ids) byId.set(id, [...(byId.get(id) ?? []), run.event.reason.replace("!", "")]);
  return byId;
}

describe("changedIds", () => {
  test("every id it leaves out has the same history in both logs, however the runs changed", () => {
    fc.assert(
      fc.property(
        fc.array(runArbitrary, { maxLength: 10 }),
        fc.array(fc.record({ keep: fc.constantFrom("same", "copy", "reason", "grow", "shrink", "swap", "drop"), insertBefore: fc.option(runArbitrary, { nil: undefined }) }), { maxLength: 10 }),
        fc.array(runArbitrary, { maxLength: 3 }),
        (first, steps, appended) => {
          const before: EventRun[] = first.map((run) => ({ ids: run.ids, event: event(run.reason) }));
          const after: EventRun[] = [];
          before.forEach((run, index) => {
            const step = steps[index] ?? { keep: "same" as const, insertBefore: undefined };
            if (step.insertBefore !== undefined) after.push({ ids: step.insertBefore.ids, event: event(step.insertBefore.reason) });
            if (step.keep === "same") after.push(run);
            else if (step.keep === "copy") after.push({ ids: [...run.ids], event: { ...run.event } });
            else if (step.keep === "reason") after.push({ ids: run.ids, event: event(`${run.event.reason}!`) });
            else if (step.keep === "grow") after.push({ ids: [...run.ids, IDS[index % IDS.length]!], event: run.event });
            else if (step.keep === "shrink") after.push({ ids: run.ids.slice(1), event: run.event });
            else if (step.keep === "swap") after.push({ ids: [...run.ids].reverse(), event: run.event });
          });
          after.push(...appended.map((run) => ({ ids: run.ids, event: event(run.reason) })));
          const oldLog = { runs: before, length: before.length };
          const newLog = { runs: after, length: after.length };
          const changed = changedIds(oldLog, newLog, same);
          const [was, now] = [histories(oldLog), histories(newLog)];
          for (const id of IDS) if (!changed.has(id)) expect([id, now.get(id)]).toEqual([id, was.get(id)]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("a log compared with itself changes nothing; runs added at the end change only their ids", () => {
    const runs: EventRun[] = [
      { ids: ["a", "b"], event: event("one") },
      { ids: ["c"], event: event("two") },
    ];
    const log = { runs, length: runs.length };
    expect([...changedIds(log, log, same)]).toEqual([]);
    expect([...changedIds(log, { runs: [...runs, { ids: ["d"], event: event("one") }], length: 3 }, same)]).toEqual(["d"]);
  });
});
