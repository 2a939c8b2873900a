// Per-turn figures beyond the median: the p90 and the worst turn say how often a turn is slow, which a
// median of 200 turns hides.

/**
 * The nearest-rank percentile of `samples` (any unit): the smallest sample with at least `fraction` of
 * all samples at or below it. `fraction` is in (0, 1]; percentile(samples, 1) is the largest sample.
 */
export function percentile(samples: ReadonlyArray<number>, fraction: number): number {
  if (samples.length === 0) throw new RangeError("a percentile needs at least one sample");
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`fraction: must be in (0, 1], got ${fraction}`);
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.ceil(fraction * sorted.length) - 1]!;
}
