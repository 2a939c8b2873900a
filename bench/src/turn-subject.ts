// The conversation every issue-24 row runs on: N generated messages of history, the messages later
// turns append, and the budget (half the history's exact o200k tokens, counted by the trimMessages
// baseline's counter, which shares no cache with ctxpipe). Made once per size and shared by the rows.
import { SystemMessage } from "@langchain/core/messages";
import { AGENT_SYSTEM_PROMPT } from "./agent-loop-benchmark.js";
import { generateConversation, type StoredMessage } from "./generate-conversation.js";
import { toLangChainMessages } from "./to-langchain-messages.js";
import { TrimMessagesBaseline } from "./trim-messages-baseline.js";

export interface TurnSubject {
  readonly messages: number;
  readonly history: ReadonlyArray<StoredMessage>;
  /** Messages appended by the turns, in order (a turn of the library rows appends one). */
  readonly upcoming: ReadonlyArray<StoredMessage>;
  readonly megabytes: number;
  /** Half the history's tokens (system prompt and OpenAI's per-message overhead included). */
  readonly budgetTokens: number;
}

const subjects = new Map<string, TurnSubject>();

export function turnSubject(messages: number, turns: number): TurnSubject {
  const key = `${messages}:${turns}`;
  let subject = subjects.get(key);
  if (subject === undefined) {
    const stored = generateConversation(messages + turns);
    const history = stored.slice(0, messages);
    const counter = new TrimMessagesBaseline();
    const budgetTokens = Math.floor(counter.countTokens([new SystemMessage(AGENT_SYSTEM_PROMPT), ...toLangChainMessages(history)]) / 2);
    subject = { messages, history, upcoming: stored.slice(messages), megabytes: Buffer.byteLength(JSON.stringify(history)) / 1e6, budgetTokens };
    subjects.set(key, subject);
  }
  return subject;
}
