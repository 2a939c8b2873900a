import { expect, test } from "vitest";
import { formatMilliseconds, formatRatio, formatTiming, measure, timingOf } from "./measure.js";

test("timingOf: the median (the mean of the middle two for an even count), min and max", () => {
  expect(timingOf([5, 1, 3])).toEqual({ runs: 3, median: 3, min: 1, max: 5 });
  expect(timingOf([4, 1, 3, 10])).toEqual({ runs: 4, median: 3.5, min: 1, max: 10 });
  expect(() => timingOf([])).toThrow(RangeError);
});

test("measure runs once per index, in order, awaiting each run", async () => {
  const seen: number[] = [];
  const timing = await measure(4, async (index) => {
    await Promise.resolve();
    seen.push(index);
  });
  expect(seen).toEqual([0, 1, 2, 3]);
  expect(timing.runs).toBe(4);
  expect(timing.min).toBeLessThanOrEqual(timing.median);
  expect(timing.median).toBeLessThanOrEqual(timing.max);
});

test("formatting: about three significant digits, ratios of medians", () => {
  expect([0.21449, 2.1449, 21.449, 214.49, 2144.9].map(formatMilliseconds)).toEqual(["0.214", "2.14", "21.4", "214", "2,145"]);
  expect(formatTiming({ runs: 3, median: 2.14, min: 1.981, max: 26 })).toBe("2.14 ms (1.98–26.0)");
  expect(formatRatio({ runs: 1, median: 760, min: 760, max: 760 }, { runs: 1, median: 2, min: 2, max: 2 })).toBe("380×");
  expect(formatRatio({ runs: 1, median: 3, min: 3, max: 3 }, { runs: 1, median: 2, min: 2, max: 2 })).toBe("1.5×");
});
