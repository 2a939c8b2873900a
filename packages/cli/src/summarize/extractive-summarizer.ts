// The summarizer `--compression summarize` uses unless told to call a model: offline and deterministic.
// It keeps, per message, the first sentence a person would look for (what the user asked, what the
// assistant said it would do, which tool ran and how it ended), so the inspector shows which turns a
// summary would replace and what the request would cost, without sending the conversation anywhere.
import type { Summarizer } from "@ctxpipe/compression";
import { type Item, itemText } from "@ctxpipe/core";

const LINE_LENGTH = 160;
/** Characters per token the length limit assumes: prose in o200k runs at about 4. */
const CHARACTERS_PER_TOKEN = 4;

function firstSentence(text: string): string {
  const flat = text.replace(/^(USER_INPUT|DATA_CONTEXT)\n/, "").replace(/\s+/g, " ").trim();
  const end = flat.search(/[.!?。！？](\s|$)/);
  const sentence = end === -1 ? flat : flat.slice(0, end + 1);
  return sentence.length > LINE_LENGTH ? `${sentence.slice(0, LINE_LENGTH - 1)}…` : sentence;
}

function lineOf(item: Item): string | undefined {
  switch (item.type) {
    case "user":
      return `- The user: ${firstSentence(item.text)}`;
    case "assistant": {
      const said = item.text.trim().length > 0 ? firstSentence(item.text) : "";
      const called = item.toolCalls.length > 0 ? `[called ${item.toolCalls.map((call) => call.name).join(", ")}]` : "";
      return `- The assistant: ${[said, called].filter((part) => part.length > 0).join(" ")}`;
    }
    case "tool-result":
      return item.isError ? `- ${item.toolName ?? "A tool"} failed: ${firstSentence(item.output)}` : `- ${item.toolName ?? "A tool"} returned ${item.output.length} characters: ${firstSentence(item.output)}`;
    case "summary":
      return undefined;
    default: {
      const text = itemText(item);
      return text.trim().length === 0 ? undefined : `- (${item.type}) ${firstSentence(text)}`;
    }
  }
}

export const extractiveSummarizer: Summarizer = (request) => {
  const limit = request.maxTokens * CHARACTERS_PER_TOKEN;
  const what = request.previousSummary === undefined ? `${request.items.length} earlier messages` : `an earlier summary and the ${request.items.length} messages after it`;
  const heading = `Extractive summary of ${what} (first sentences, made offline; no model was asked):`;
  const lines = [heading];
  if (request.previousSummary !== undefined) lines.push(`- Earlier: ${firstSentence(request.previousSummary)}`);
  let length = heading.length;
  for (const item of request.items) {
    const line = lineOf(item);
    if (line === undefined) continue;
    if (length + line.length + 1 > limit) {
      lines.push("- …");
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n");
};
