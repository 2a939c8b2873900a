// The summarizer is the application's: an async function that turns a range of turns into text,
// usually with an LLM call. ctxpipe hands it the items, a plain transcript and a prompt that asks to
// keep the facts; it calls it with a timeout and an AbortSignal, and never trusts an empty answer.
import { type Item, itemText } from "@ctxpipe/core";

export interface SummarizerRequest {
  /** The messages to summarize, oldest first. An earlier summary rolled in is in previousSummary, not here. */
  readonly items: ReadonlyArray<Item>;
  /** The messages as a plain-text transcript, one block per message. */
  readonly transcript: string;
  /** The summary these messages continue: its facts must survive into the new one. */
  readonly previousSummary: string | undefined;
  /** About how long the summary may be, in tokens. */
  readonly maxTokens: number;
  /** A ready-made instruction for an LLM, transcript and previous summary included. */
  readonly prompt: string;
  /** Aborted when the summarizer runs out of time. */
  readonly signal: AbortSignal;
}

export type Summarizer = (request: SummarizerRequest) => Promise<string> | string;

function describe(item: Item): string {
  switch (item.type) {
    case "assistant": {
      const calls = item.toolCalls.map((call) => `  → ${call.name}(${call.arguments})`).join("\n");
      return [`[assistant] ${item.text}`.trimEnd(), calls].filter((part) => part.length > 0).join("\n");
    }
    case "tool-result":
      return `[${item.isError ? "error from" : "result of"} ${item.toolName ?? "tool"}] ${item.output}`;
    default:
      return `[${item.type}] ${itemText(item)}`;
  }
}

export function transcriptOf(items: ReadonlyArray<Item>): string {
  return items.map(describe).join("\n\n");
}

export function summaryPrompt(transcript: string, previousSummary: string | undefined, maxTokens: number): string {
  return [
    "Summarize the conversation below so that it can replace it in the context of the assistant that continues it.",
    "Keep every fact the assistant may need later: decisions and their reasons, names, numbers, ids, file paths, commands, errors and how they were resolved, what the user asked for and still expects, open tasks.",
    "Leave out greetings and repetition. Write plain prose or terse bullet points, in the conversation's language.",
    previousSummary === undefined ? "" : "The conversation continues an earlier summary: everything it says must still be in your summary unless the conversation contradicts it.",
    `Stay under about ${maxTokens} tokens.`,
    previousSummary === undefined ? "" : `<earlier_summary>\n${previousSummary}\n</earlier_summary>`,
    `<conversation>\n${transcript}\n</conversation>`,
  ]
    .filter((line) => line.length > 0)
    .join("\n\n");
}

export type SummarizerCall = { ok: true; text: string } | { ok: false; outcome: "threw" | "timed-out" | "empty"; error: string; cause?: unknown };

/** Calls the summarizer with a deadline; every way it can fail comes back as a value. */
export async function callSummarizer(summarizer: Summarizer, request: Omit<SummarizerRequest, "signal">, timeoutMs: number): Promise<SummarizerCall> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const answer = await Promise.race([Promise.resolve().then(() => summarizer({ ...request, signal: controller.signal })), deadline]);
    if (answer === "timeout") {
      controller.abort(new Error(`the summarizer took longer than ${timeoutMs} ms`));
      return { ok: false, outcome: "timed-out", error: `no answer within ${timeoutMs} ms` };
    }
    if (typeof answer !== "string") return { ok: false, outcome: "empty", error: `returned ${answer === null ? "null" : typeof answer} instead of text` };
    if (answer.trim().length === 0) return { ok: false, outcome: "empty", error: "returned empty text" };
    return { ok: true, text: answer.trim() };
  } catch (error) {
    return { ok: false, outcome: "threw", error: error instanceof Error ? error.message : String(error), cause: error };
  } finally {
    clearTimeout(timer);
  }
}
