import fc from "fast-check";
import { expect, test } from "vitest";
import { percentile } from "./percentile.js";

test.for([
  { samples: [5], fraction: 0.9, expected: 5 },
  { samples: [3, 1, 2], fraction: 0.5, expected: 2 },
  { samples: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], fraction: 0.9, expected: 9 },
  { samples: [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 11], fraction: 0.9, expected: 10 },
  { samples: [4, 1, 3, 2], fraction: 1, expected: 4 },
])("percentile($samples, $fraction) is $expected (nearest rank)", ({ samples, fraction, expected }) => {
  expect(percentile(samples, fraction)).toBe(expected);
});

test("no samples or a fraction outside (0, 1] is a RangeError naming what is wrong", () => {
  expect(() => percentile([], 0.9)).toThrow(new RangeError("a percentile needs at least one sample"));
  expect(() => percentile([1], 0)).toThrow(new RangeError("fraction: must be in (0, 1], got 0"));
  expect(() => percentile([1], 1.5)).toThrow(new RangeError("fraction: must be in (0, 1], got 1.5"));
});

test("property: a percentile is one of the samples, and at least as many samples as its share lie at or below it", () => {
  fc.assert(
    fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1 }), fc.double({ min: 0.01, max: 1, noNaN: true }), (samples, fraction) => {
      const value = percentile(samples, fraction);
      expect(samples).toContain(value);
      expect(samples.filter((sample) => sample <= value).length).toBeGreaterThanOrEqual(Math.ceil(fraction * samples.length));
    }),
  );
});
