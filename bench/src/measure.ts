// Median wall time of repeated runs. Medians, because a shared machine's noise is one-sided.
export async function medianMilliseconds(runs: number, run: (index: number) => unknown | Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < runs; index++) {
    const started = process.hrtime.bigint();
    await run(index);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((left, right) => left - right);
  return times[Math.floor(times.length / 2)]!;
}
