// Builds the same stored conversation for each provider with one pipeline: the default stages repair
// it, each renderer checks its request against its provider's rules.
import { createPipeline, type ItemInput, type ReportEntry } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin, GeminiRendererPlugin } from "@ctxpipe/renderers";

export async function renderForEveryProvider(items: ReadonlyArray<ItemInput>) {
  const pipeline = createPipeline({ plugins: [new AnthropicMessagesRendererPlugin({ maxTokens: 2048 }), new GeminiRendererPlugin()] });
  const system = "You are a deployment assistant.";
  const openai = await pipeline.build(items, { renderer: "openai", model: "gpt-4o", system });
  const anthropic = await pipeline.build(items, { renderer: "anthropic", model: "claude-sonnet-4-6", system });
  const gemini = await pipeline.build(items, { renderer: "gemini", model: "gemini-3-pro", system });
  return { openai, anthropic, gemini };
}

/** The report lines worth reading: everything that was not simply sent as stored. */
export function repairsOf(entries: ReadonlyArray<ReportEntry>): string[] {
  return entries.filter((entry) => entry.decision !== "kept").map((entry) => `${entry.id}: ${entry.decision} by ${entry.plugin} (${entry.stage}): ${entry.reason}`);
}
