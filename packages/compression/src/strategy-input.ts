// How a chain is configured: a built-in strategy by name ("sliding-window"), by its settings
// ({ type: "clear-tool-results", keepRecent: 5 }), or any object implementing CompressionStrategy.
// Swapping strategies is a change of configuration, not of code.
import { PluginOptionsError } from "@ctxpipe/core";
import { z } from "zod";
import type { CompressionStrategy } from "./compression-strategy.js";
import { type ClearToolResultsSettings, clearToolResults, clearToolResultsSettingsSchema } from "./strategies/clear-tool-results.js";
import { type PrioritySettings, priority, prioritySettingsSchema } from "./strategies/priority.js";
import { type SlidingWindowSettings, slidingWindow, slidingWindowSettingsSchema } from "./strategies/sliding-window.js";
import { type SummarizeSettings, summarize, summarizeSettingsSchema } from "./strategies/summarize.js";
import { type TruncateToolResultsSettings, truncateToolResults, truncateToolResultsSettingsSchema } from "./strategies/truncate-tool-results.js";
import type { Summarizer } from "./summaries/summarizer.js";

export const STRATEGY_NAMES = ["sliding-window", "clear-tool-results", "summarize", "priority", "truncate-tool-results"] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

export type StrategySettings = SlidingWindowSettings | ClearToolResultsSettings | SummarizeSettings | PrioritySettings | TruncateToolResultsSettings;
export type StrategyInput = StrategyName | StrategySettings | CompressionStrategy;

const settingsSchema = z.discriminatedUnion("type", [slidingWindowSettingsSchema, clearToolResultsSettingsSchema, summarizeSettingsSchema, prioritySettingsSchema, truncateToolResultsSettingsSchema]);

function isStrategy(value: unknown): value is CompressionStrategy {
  const candidate = value as Partial<CompressionStrategy> | null;
  return typeof candidate === "object" && candidate !== null && typeof candidate.name === "string" && candidate.name.length > 0 && typeof candidate.compress === "function";
}

export function strategyFrom(input: unknown, index: number, host: { plugin: string; summarizer: Summarizer | undefined }): CompressionStrategy {
  if (isStrategy(input)) return input;
  const settings = typeof input === "string" ? { type: input } : input;
  if (typeof input === "string" && !(STRATEGY_NAMES as ReadonlyArray<string>).includes(input)) {
    throw new PluginOptionsError(host.plugin, `  strategies[${index}]: unknown strategy "${input}"; expected one of ${STRATEGY_NAMES.join(", ")}, their settings, or an object { name, compress(items, context) }`);
  }
  const parsed = settingsSchema.safeParse(settings);
  // The heading names the entry: zod gives no path for an issue at the settings' top level (an
  // unrecognized key, a missing type).
  if (!parsed.success) throw new PluginOptionsError(host.plugin, `  strategies[${index}]:\n${z.prettifyError(parsed.error).replaceAll("→ at ", `→ at strategies[${index}].`)}`);
  const { type, ...rest } = parsed.data;
  switch (type) {
    case "sliding-window":
      return slidingWindow(rest as Omit<SlidingWindowSettings, "type">);
    case "clear-tool-results":
      return clearToolResults(rest as Omit<ClearToolResultsSettings, "type">);
    case "priority":
      return priority(rest as Omit<PrioritySettings, "type">);
    case "truncate-tool-results":
      return truncateToolResults(rest as Omit<TruncateToolResultsSettings, "type">);
    case "summarize": {
      const summarizeSettings = rest as Omit<SummarizeSettings, "type">;
      if (summarizeSettings.summarizer === undefined && host.summarizer === undefined) {
        throw new PluginOptionsError(host.plugin, `  strategies[${index}]: "summarize" needs a summarizer: pass { summarizer } to CompressionPlugin or in the strategy's settings`);
      }
      return summarize(summarizeSettings, host.summarizer);
    }
  }
}
