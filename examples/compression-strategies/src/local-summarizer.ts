// The summarizer of this example: a deterministic local function instead of an LLM call, so the example
// runs without a network or an API key. A real application would send `request.prompt` to its model.
import type { Summarizer } from "@ctxpipe/compression";

function firstWords(text: string, count: number): string {
  const words = text.split(/\s+/).filter((word) => word.length > 0);
  return words.length <= count ? words.join(" ") : `${words.slice(0, count).join(" ")} …`;
}

export const localSummarizer: Summarizer = ({ items, previousSummary, maxTokens }) => {
  // A rolled summary keeps what the earlier one said, then adds the newly covered turns.
  const lines = previousSummary === undefined ? [] : previousSummary.split("\n");
  for (const item of items) {
    if (item.type === "user") lines.push(`- User: ${firstWords(item.text, 16)}`);
    if (item.type === "assistant") for (const call of item.toolCalls) lines.push(`- Agent called ${call.name}(${call.arguments})`);
  }
  // Stay within maxTokens (about 4 characters a token): the oldest lines give way first, constraints last.
  while (lines.join("\n").length / 4 > maxTokens) {
    const oldest = lines.findIndex((line) => !line.includes("constraint"));
    if (oldest === -1 || lines.length === 1) break;
    lines.splice(oldest, 1);
  }
  return lines.join("\n");
};
