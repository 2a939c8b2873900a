// Rows a and b of the issue-24 table: the library in an agent loop (append one stored message, rebuild
// within half the history's tokens with exact o200k counts), without and with the default compression
// chain. "kept" is the path as users run it now: one pipeline, the item objects kept between turns.
// The other variants defeat that reuse to show what a turn cost before it: the same pipeline given
// items imported again from the stored messages (new objects every turn, as the loops did), and a new
// pipeline every turn (a stateless server).
import { type BuildResult, importStoredMessages, type Item, type Tokenizer } from "@ctxpipe/core";
import { AGENT_SYSTEM_PROMPT } from "./agent-system-prompt.js";
import { libraryPipeline } from "./library-pipeline.js";
import { type TurnFigures, timeTurns, turnFigures } from "./turn-figures.js";
import type { TurnSubject } from "./turn-subject.js";

export type LibraryVariant = "kept" | "imported again" | "new pipeline";

export interface LibraryTurnOptions {
  /** The default chain (DEFAULT_STRATEGIES, notice on as in the loops), or core's FitBudgetPlugin alone. */
  readonly compression: boolean;
  readonly variant: LibraryVariant;
  readonly turns: number;
  /** No new turn starts after this many milliseconds. */
  readonly budgetMs?: number;
  readonly tokenizer: Tokenizer;
  /**
   * For "kept": when the cut did not move in the timed turns, go on appending (at most this many more
   * turns, untimed but for the one) until it does, and time that turn. Default 0.
   */
  readonly untilCutMoves?: number;
  /** The budget in tokens; default the subject's (half the history). */
  readonly maxTokens?: number;
}

export interface LibraryTurnFigures {
  readonly turns: TurnFigures;
  /**
   * Turns on which the window changed before the newest turn: the request does not start with the
   * previous request up to its last user message (before its final message) (the cut moved, a strategy cleared or cut more, or
   * the system prompt's note changed), so a provider's prompt cache breaks in the history.
   */
  readonly cutMoves: { readonly count: number; readonly figures: TurnFigures | undefined };
  /** The first turn past the timed ones on which the cut moved (see `untilCutMoves`), and its time. */
  readonly laterCutMove: { readonly turn: number; readonly milliseconds: number } | undefined;
  /** For "kept": whether the last turn's request and report equal a new pipeline's on the same items. */
  readonly sameAsNewPipeline: boolean | undefined;
  /** This process's resident set after the turns, in bytes. */
  readonly rss: number;
}

export async function libraryTurnBenchmark(subject: TurnSubject, options: LibraryTurnOptions): Promise<LibraryTurnFigures> {
  const maxTokens = options.maxTokens ?? subject.budgetTokens;
  const buildOptions = { model: "gpt-4o", tokenizer: options.tokenizer, maxTokens, system: AGENT_SYSTEM_PROMPT };
  const stored = [...subject.history];
  let items: Item[] = importStoredMessages(stored);
  let pipeline = libraryPipeline(options.compression);
  // The kept paths have built the history once before the first timed turn, as a running app has.
  if (options.variant !== "new pipeline") await pipeline.build(items, buildOptions);

  // Only what the figures need is kept from each turn, as an app keeps at most the request it sent
  // last: every turn's request kept (10,000 messages each) would be old memory the collector walks
  // in the timed turns, and a report kept for every turn would be assembled for each.
  let previous: unknown;
  const changed: boolean[] = [];
  let last: BuildResult<unknown> | undefined;
  const times = await timeTurns(
    Math.min(options.turns, subject.upcoming.length),
    async (turn) => {
      const next = subject.upcoming[turn]!;
      stored.push(next);
      if (options.variant === "kept") items.push(...importStoredMessages([next]));
      else items = importStoredMessages(stored);
      if (options.variant === "new pipeline") pipeline = libraryPipeline(options.compression);
      last = await pipeline.build(items, buildOptions);
    },
    {
      ...(options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs }),
      between: (turn) => {
        if (last!.tokenCount > maxTokens) throw new Error(`ctxpipe sent ${last!.tokenCount} tokens over a budget of ${maxTokens}`);
        changed.push(turn > 0 && windowChanged(previous, last!.request));
        previous = last!.request;
      },
    },
  );

  const moved = options.variant === "new pipeline" ? [] : times.filter((_, turn) => changed[turn]);
  let laterCutMove: LibraryTurnFigures["laterCutMove"];
  if (options.variant === "kept" && moved.length === 0) {
    for (let turn = times.length; turn < Math.min(times.length + (options.untilCutMoves ?? 0), subject.upcoming.length); turn++) {
      const next = subject.upcoming[turn]!;
      stored.push(next);
      const started = performance.now();
      items.push(...importStoredMessages([next]));
      last = await pipeline.build(items, buildOptions);
      const milliseconds = performance.now() - started;
      if (last.tokenCount > maxTokens) throw new Error(`ctxpipe sent ${last.tokenCount} tokens over a budget of ${maxTokens}`);
      if (windowChanged(previous, last.request)) {
        laterCutMove = { turn: turn + 1, milliseconds };
        break;
      }
      previous = last.request;
    }
  }
  const rss = process.memoryUsage().rss;
  let sameAsNewPipeline: boolean | undefined;
  if (options.variant === "kept") {
    // Reuse must never change a result: the last turn, built again from scratch, is the same request and report.
    const fresh = await libraryPipeline(options.compression).build(importStoredMessages(stored), buildOptions);
    sameAsNewPipeline = JSON.stringify(fresh.request) === JSON.stringify(last!.request) && JSON.stringify(withoutCache(fresh.report)) === JSON.stringify(withoutCache(last!.report));
  }
  return { turns: turnFigures(times), cutMoves: { count: moved.length, figures: moved.length === 0 ? undefined : turnFigures(moved) }, laterCutMove, sameAsNewPipeline, rss };
}

/** A report without the one field that depends on the pipeline's previous build (the cache comparison); allEntries, not enumerable, included. */
function withoutCache(report: BuildResult<unknown>["report"]): unknown {
  const { cache: _cache, ...rest } = report;
  return { ...rest, allEntries: report.allEntries };
}

type Message = { readonly role?: string };

/**
 * Whether `next` no longer starts with `previous` up to its last user message before its final message
 * (a request that would end on the model's answer ends on a synthesized "Continue.", which the next
 * turn's message replaces). Messages are compared by identity first (the renderer hands back the same
 * frozen messages), then as JSON.
 */
export function windowChanged(previous: unknown, next: unknown): boolean {
  const before = (previous as { messages?: ReadonlyArray<Message> }).messages ?? [];
  const after = (next as { messages?: ReadonlyArray<Message> }).messages ?? [];
  let lastUser = before.length - 2;
  while (lastUser >= 0 && before[lastUser]!.role !== "user") lastUser--;
  for (let index = 0; index <= lastUser; index++) {
    const message = before[index];
    if (message !== after[index] && JSON.stringify(message) !== JSON.stringify(after[index])) return true;
  }
  return false;
}
