// One stored conversation, one pipeline, four request formats. The importer reads the Responses items;
// each renderer writes its provider's format and checks it against that provider's rules.
import { createPipeline, importOpenAIResponsesItems } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin, GeminiRendererPlugin, OpenAIResponsesRendererPlugin } from "@ctxpipe/renderers";
import { storedConversation, tools } from "./stored-conversation.js";

export async function buildForFourApis() {
  const items = importOpenAIResponsesItems(storedConversation());
  const pipeline = createPipeline({ plugins: [new OpenAIResponsesRendererPlugin(), new AnthropicMessagesRendererPlugin(), new GeminiRendererPlugin()] });
  // The conversation's id keys OpenAI's prompt cache (both formats); Anthropic gets cache breakpoints by default.
  const common = { tools, reserveOutputTokens: 2000, promptCacheKey: "payments-deploy-2026-11-26" };
  return {
    chatCompletions: await pipeline.build(items, { ...common, renderer: "openai", model: "gpt-4.1" }),
    responses: await pipeline.build(items, { ...common, renderer: "openai-responses", model: "gpt-5" }),
    anthropic: await pipeline.build(items, { ...common, renderer: "anthropic", model: "claude-sonnet-4-6" }),
    gemini: await pipeline.build(items, { ...common, renderer: "gemini", model: "gemini-3-pro" }),
  };
}
