// Timed turns of a loop, and the figures printed for them: median, p90 and the worst turn. A path
// that is slow today gets a time budget, so the whole run stays minutes long while a fast path still
// runs all its turns. Between turns the event loop runs once, untimed, as it does in an app while the
// model answers: V8 does part of its garbage collection in tasks of its own, and a loop of turns that
// never yields would push all of that into the timed turns, which no user's loop does.
import { percentile } from "./percentile.js";

export interface TurnFigures {
  readonly runs: number;
  readonly median: number;
  readonly p90: number;
  readonly worst: number;
}

export interface TimeTurnsOptions {
  /** Stop starting new turns once this many milliseconds have passed (at least one turn always runs). */
  readonly budgetMs?: number;
  /** The clock, in milliseconds. Default performance.now; tests pass their own. */
  readonly now?: () => number;
  /** Runs after each turn, untimed (a comparison with the turn before, kept out of the figures). */
  readonly between?: (turn: number) => unknown | Promise<unknown>;
}

/** Runs `run` for turns 0, 1, 2… up to `turns` (or the budget), one after another; each turn's wall time in milliseconds. */
export async function timeTurns(turns: number, run: (turn: number) => unknown | Promise<unknown>, options: TimeTurnsOptions = {}): Promise<number[]> {
  const now = options.now ?? (() => performance.now());
  const budgetMs = options.budgetMs ?? Number.POSITIVE_INFINITY;
  const times: number[] = [];
  const started = now();
  for (let turn = 0; turn < turns; turn++) {
    if (turn > 0 && now() - started >= budgetMs) break;
    const before = now();
    await run(turn);
    times.push(now() - before);
    await options.between?.(turn);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return times;
}

/** The median (the mean of the middle two for an even count), the nearest-rank p90 and the worst of `samples`. */
export function turnFigures(samples: ReadonlyArray<number>): TurnFigures {
  if (samples.length === 0) throw new RangeError("turn figures need at least one turn");
  const sorted = [...samples].sort((left, right) => left - right);
  const middle = sorted.length / 2;
  const median = sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { runs: sorted.length, median, p90: percentile(sorted, 0.9), worst: sorted[sorted.length - 1]! };
}

/**
 * How many times faster a path is than the peer, by medians: "412×" (≥ 10), "2.5×", or, for a path
 * slower than the peer, two significant digits: "0.41×".
 */
export function formatTimesFaster(peer: TurnFigures, path: TurnFigures): string {
  const ratio = peer.median / path.median;
  if (ratio >= 10) return `${Math.round(ratio).toLocaleString("en-US")}×`;
  if (ratio >= 1) return `${ratio.toFixed(1)}×`;
  return `${ratio.toPrecision(2)}×`;
}
