import { expect, test } from "vitest";
import { formatTimesFaster, timeTurns, turnFigures } from "./turn-figures.js";

/** A clock that moves only when a turn says so. */
function manualClock() {
  let time = 0;
  return {
    now: () => time,
    advance: (milliseconds: number) => {
      time += milliseconds;
    },
  };
}

test("every turn runs in order, and each one's time is what its run took", async () => {
  const clock = manualClock();
  const seen: number[] = [];
  const times = await timeTurns(
    4,
    async (turn) => {
      await Promise.resolve();
      seen.push(turn);
      clock.advance(turn + 1);
    },
    { now: clock.now },
  );
  expect({ seen, times }).toEqual({ seen: [0, 1, 2, 3], times: [1, 2, 3, 4] });
});

test("what runs between turns is not timed, and the event loop turns before the next turn starts", async () => {
  const clock = manualClock();
  const order: string[] = [];
  const times = await timeTurns(
    3,
    (turn) => {
      order.push(`turn ${turn}`);
      // A task queued by the turn runs before the next turn: the loop yields to the event loop.
      setImmediate(() => order.push(`task of ${turn}`));
      clock.advance(2);
    },
    {
      now: clock.now,
      between: (turn) => {
        order.push(`between ${turn}`);
        clock.advance(100);
      },
    },
  );
  expect({ times, order }).toEqual({
    times: [2, 2, 2],
    order: ["turn 0", "between 0", "task of 0", "turn 1", "between 1", "task of 1", "turn 2", "between 2", "task of 2"],
  });
});

test("the budget stops new turns once spent, and the first turn always runs", async () => {
  const clock = manualClock();
  const spend = (milliseconds: number) => () => clock.advance(milliseconds);
  expect(await timeTurns(10, spend(30), { budgetMs: 100, now: clock.now })).toEqual([30, 30, 30, 30]);
  expect(await timeTurns(10, spend(500), { budgetMs: 100, now: clock.now })).toEqual([500]);
});

test.for([
  { samples: [7], expected: { runs: 1, median: 7, p90: 7, worst: 7 } },
  { samples: [4, 1, 3, 2], expected: { runs: 4, median: 2.5, p90: 4, worst: 4 } },
  { samples: [10, 1, 2, 3, 4, 5, 6, 7, 8, 9], expected: { runs: 10, median: 5.5, p90: 9, worst: 10 } },
])("turnFigures($samples)", ({ samples, expected }) => {
  expect(turnFigures(samples)).toEqual(expected);
});

test("no turns is a RangeError", () => {
  expect(() => turnFigures([])).toThrow(new RangeError("turn figures need at least one turn"));
});

test.for([
  { peer: 800, path: 2, expected: "400×" },
  { peer: 800, path: 0.5, expected: "1,600×" },
  { peer: 25, path: 10, expected: "2.5×" },
  { peer: 800, path: 1950, expected: "0.41×" },
  { peer: 1, path: 300, expected: "0.0033×" },
])("a path of $path ms against a peer of $peer ms is $expected faster", ({ peer, path, expected }) => {
  const figures = (median: number) => ({ runs: 1, median, p90: median, worst: median });
  expect(formatTimesFaster(figures(peer), figures(path))).toBe(expected);
});
