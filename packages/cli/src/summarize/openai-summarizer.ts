// `--summarizer openai`: the summary is written by a model behind an OpenAI-compatible endpoint
// (OPENAI_BASE_URL, OPENAI_API_KEY), with the compression package's own prompt.
import type { Summarizer } from "@ctxpipe/compression";
import { openAICompatibleModel } from "@ctxpipe/loop";

export const DEFAULT_SUMMARIZER_MODEL = "gpt-4o-mini";

export function openAISummarizer(model: string, env: Readonly<Record<string, string | undefined>>): Summarizer {
  const adapter = openAICompatibleModel({ model, env, stream: false });
  return async (request) => {
    const reply = await adapter.complete({ request: { messages: [{ role: "user", content: request.prompt }] }, signal: request.signal });
    return reply.text;
  };
}
