// Row g of the issue-24 table: LangChain.js trimMessages with memoized exact o200k counts, one
// appended message and one trim per turn, the peer every other row is divided by.
import { type BaseMessage, SystemMessage } from "@langchain/core/messages";
import { AGENT_SYSTEM_PROMPT } from "./agent-loop-benchmark.js";
import { toLangChainMessage, toLangChainMessages } from "./to-langchain-messages.js";
import { TrimMessagesBaseline } from "./trim-messages-baseline.js";
import { type TurnFigures, timeTurns, turnFigures } from "./turn-figures.js";
import type { TurnSubject } from "./turn-subject.js";

export interface TrimMessagesTurns {
  readonly turns: TurnFigures;
  /** This process's resident set after the turns, in bytes. */
  readonly rss: number;
}

export async function trimMessagesTurns(subject: TurnSubject, turns: number, budgetMs?: number): Promise<TrimMessagesTurns> {
  const baseline = new TrimMessagesBaseline();
  const messages: BaseMessage[] = [new SystemMessage(AGENT_SYSTEM_PROMPT), ...toLangChainMessages(subject.history)];
  // The first call counts (and memoizes) every message of the history; it is not a turn.
  await baseline.trim(messages, subject.budgetTokens);
  let trimmed: BaseMessage[] = [];
  const times = await timeTurns(
    Math.min(turns, subject.upcoming.length),
    async (turn) => {
      messages.push(toLangChainMessage(subject.upcoming[turn]!));
      trimmed = await baseline.trim(messages, subject.budgetTokens);
    },
    {
      ...(budgetMs === undefined ? {} : { budgetMs }),
      // Checked between the timed turns, so the check's counting is not timed; nothing kept past it.
      between: () => {
        const tokens = baseline.countTokens(trimmed);
        if (tokens > subject.budgetTokens) throw new Error(`trimMessages kept ${tokens} tokens over a budget of ${subject.budgetTokens}`);
      },
    },
  );
  return { turns: turnFigures(times), rss: process.memoryUsage().rss };
}
