// src/pipeline.ts
import { CompressionPlugin, type Summarizer } from "@ctxpipe/compression";
import { createPipeline, type Pipeline } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin } from "@ctxpipe/renderers";
import { TokenizerPlugin } from "@ctxpipe/tokenizers";

/** One pipeline per conversation, kept between turns: report.cache compares each build with its previous one. */
export function createAgentPipeline(summarizer: Summarizer): Pipeline {
  return createPipeline({
    plugins: [
      // Counts with the build's model: exact o200k_base for gpt-4o, a flagged estimate for Claude.
      new TokenizerPlugin(),
      // Adds the "anthropic" renderer; "openai" is built in.
      new AnthropicMessagesRendererPlugin(),
      // Compression policy: cheapest and least lossy first. Each entry is a strategy's name or its settings.
      new CompressionPlugin({
        strategies: [
          { type: "clear-tool-results", keepRecent: 3, clearAtLeast: 1_000 },
          { type: "summarize", maxSummaryTokens: 400, onFailure: "skip" },
          "sliding-window",
        ],
        summarizer,
        triggerThreshold: 0.8, // start compressing above 80% of the budget...
        targetUsage: 0.5, // ...and bring the request back to 50% of it
      }),
    ],
  });
}
