// A deterministic summarizer, so the example needs no network: it keeps what the user said about
// themselves and the towns looked up. A real application sends `request.prompt` to its model.
import type { Summarizer } from "@ctxpipe/compression";

export const localSummarizer: Summarizer = ({ items, previousSummary }) => {
  const lines = previousSummary === undefined ? [] : previousSummary.split("\n");
  for (const item of items) {
    if (item.type === "user" && /\bmy name is\b/i.test(item.text)) lines.push(`- The user said: ${item.text.replace(/^USER_INPUT\n/, "")}`);
    if (item.type === "assistant") for (const call of item.toolCalls) lines.push(`- Looked up ${call.name}(${call.arguments})`);
  }
  return lines.length > 0 ? lines.join("\n") : "- Small talk.";
};
