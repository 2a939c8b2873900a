// src/summarizer.ts
import type Anthropic from "@anthropic-ai/sdk";
import type { Summarizer } from "@ctxpipe/compression";
import type OpenAI from "openai";

// The summarize strategy calls this when a compression step summarizes old turns, with a ready prompt
// (the transcript and any earlier summary included) and a deadline (signal).

export function openAISummarizer(openai: OpenAI, model = "gpt-4o-mini"): Summarizer {
  return async ({ prompt, maxTokens, signal }) => {
    const completion = await openai.chat.completions.create(
      { model, max_completion_tokens: maxTokens, messages: [{ role: "user", content: prompt }] },
      { signal },
    );
    return completion.choices[0]?.message.content ?? "";
  };
}

export function anthropicSummarizer(anthropic: Anthropic, model = "claude-haiku-4-5"): Summarizer {
  return async ({ prompt, maxTokens, signal }) => {
    const message = await anthropic.messages.create({ model, max_tokens: maxTokens, messages: [{ role: "user", content: prompt }] }, { signal });
    return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
  };
}
