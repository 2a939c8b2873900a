// Wall times of repeated runs, reported as a median with the min–max spread. Medians, because a
// shared machine's noise is one-sided; the spread shows how much that noise was.

export interface Timing {
  readonly runs: number;
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

/** Runs `run` `runs` times, one after another, and returns its wall times in milliseconds. */
export async function measure(runs: number, run: (index: number) => unknown | Promise<unknown>): Promise<Timing> {
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    const started = process.hrtime.bigint();
    await run(index);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return timingOf(times);
}

/** The median and spread of samples already taken (any unit). */
export function timingOf(samples: ReadonlyArray<number>): Timing {
  if (samples.length === 0) throw new RangeError("a timing needs at least one sample");
  const sorted = [...samples].sort((left, right) => left - right);
  const middle = sorted.length / 2;
  // An even count takes the mean of the two middle samples.
  const median = sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { runs: sorted.length, median, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

/** Median wall time of repeated runs, in milliseconds. */
export async function medianMilliseconds(runs: number, run: (index: number) => unknown | Promise<unknown>): Promise<number> {
  return (await measure(runs, run)).median;
}

/** Milliseconds with about three significant digits: 0.214, 2.14, 21.4, 214, 2,140. */
export function formatMilliseconds(milliseconds: number): string {
  if (milliseconds >= 1000) return Math.round(milliseconds).toLocaleString("en-US");
  const digits = milliseconds >= 100 ? 0 : milliseconds >= 10 ? 1 : milliseconds >= 1 ? 2 : 3;
  return milliseconds.toFixed(digits);
}

/** "2.14 ms (1.98–2.60)". */
export function formatTiming(timing: Timing): string {
  return `${formatMilliseconds(timing.median)} ms (${formatMilliseconds(timing.min)}–${formatMilliseconds(timing.max)})`;
}

/** How many times slower `slower` is than `faster`, by their medians: "312×". */
export function formatRatio(slower: Timing, faster: Timing): string {
  const ratio = slower.median / faster.median;
  return `${ratio >= 10 ? Math.round(ratio) : ratio.toFixed(1)}×`;
}
