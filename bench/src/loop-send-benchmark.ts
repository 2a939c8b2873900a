// Rows c and d of the issue-24 table: ChatLoop.send over a persisted 10,000-message log (JsonlStore or
// PostgresStore), a scripted model answering at once (no model time), exact gpt-4o counts, the loops'
// default compression. Each send persists the user's message, loads the log, imports and builds it,
// "calls" the model and persists its answer. "kept" is the loop as users run it now: one ChatLoop, one
// store. The other variants defeat the reuse this issue adds: loads that hand back new message objects
// every send (no token counts kept), and a new ChatLoop and store object every send (a stateless
// server, as the code before the issue met every send).
import type { Tokenizer } from "@ctxpipe/core";
import type { ConversationStore } from "@ctxpipe/store";
import { ChatLoop } from "../../packages/loop/src/index.js";
import { benchLoopOptions } from "./bench-loop-options.js";
import { reuseDefeatingStore } from "./reuse-defeating-store.js";
import { type TurnFigures, timeTurns, turnFigures } from "./turn-figures.js";
import type { TurnSubject } from "./turn-subject.js";

export type LoopVariant = "kept" | "new objects per load" | "new loop and store per send";

export interface LoopSendOptions {
  /** A store object on the data the history was persisted to; each call a new one. */
  readonly openStore: () => ConversationStore;
  readonly conversationId: string;
  /** "model": gpt-4o's own budget (128,000-token window, its output reserved); "half": half the history's tokens. */
  readonly budget: "model" | "half";
  readonly variant: LoopVariant;
  readonly sends: number;
  readonly budgetMs?: number;
  /** The exact tokenizer for the "half" budget (the model budget counts with the loop's own). */
  readonly tokenizer: Tokenizer;
}

export interface LoopSendFigures {
  readonly sends: TurnFigures;
  /** The largest request sent, in tokens, and the budget it was built within. */
  readonly tokensSent: number;
  readonly maxTokens: number;
  /** This process's resident set after the sends, in bytes. */
  readonly rss: number;
}

export async function loopSendBenchmark(subject: TurnSubject, options: LoopSendOptions): Promise<LoopSendFigures> {
  const opened: ConversationStore[] = [];
  const open = () => {
    const store = options.openStore();
    opened.push(store);
    return store;
  };
  try {
    let loop: ChatLoop | undefined;
    if (options.variant !== "new loop and store per send") {
      const store = options.variant === "kept" ? open() : reuseDefeatingStore(open());
      loop = new ChatLoop(benchLoopOptions(store, budgetOf(subject, options)));
      // The kept paths have answered once before the first timed send, as a running server has.
      await loop.send({ conversationId: options.conversationId, userInput: userInput(subject, -1) });
    }
    let tokensSent = 0;
    let maxTokens = 0;
    const times = await timeTurns(
      options.sends,
      async (turn) => {
        let sender = loop;
        let store: ConversationStore | undefined;
        if (sender === undefined) {
          store = reuseDefeatingStore(open());
          sender = new ChatLoop(benchLoopOptions(store, budgetOf(subject, options)));
        }
        const result = await sender.send({ conversationId: options.conversationId, userInput: userInput(subject, turn) });
        if (store !== undefined) await store.close();
        if (result.status !== "completed") throw new Error(`send ${turn} ended ${result.status}: ${result.error?.message ?? ""}`);
        const build = result.lastBuild!;
        tokensSent = Math.max(tokensSent, build.tokenCount);
        maxTokens = build.report.budget?.maxTokens ?? maxTokens;
      },
      options.budgetMs === undefined ? {} : { budgetMs: options.budgetMs },
    );
    return { sends: turnFigures(times), tokensSent, maxTokens, rss: process.memoryUsage().rss };
  } finally {
    await Promise.allSettled(opened.map((store) => store.close()));
  }
}

function budgetOf(subject: TurnSubject, options: LoopSendOptions) {
  return options.budget === "model" ? undefined : { maxTokens: subject.budgetTokens, tokenizer: options.tokenizer };
}

/** A user message of the generated conversation, so each send's input is text of a realistic kind. */
function userInput(subject: TurnSubject, turn: number): string {
  const questions = subject.upcoming.filter((message) => message.role === "user" && typeof message.content === "string");
  return questions.length === 0 ? `Question ${turn + 1}` : (questions[(turn + questions.length) % questions.length]!.content as string);
}
