// The model this example talks to: the scripted one, so it runs offline with no key, unless
// OPENAI_BASE_URL names an OpenAI-compatible endpoint (OPENAI_API_KEY and OPENAI_MODEL as needed).
import { type ModelAdapter, openAICompatibleModel } from "@ctxpipe/loop";

export function modelFromEnv(scripted: ModelAdapter<"openai">): ModelAdapter<"openai"> {
  if (process.env.OPENAI_BASE_URL === undefined) return scripted;
  return openAICompatibleModel({ model: process.env.OPENAI_MODEL ?? "gpt-4o-mini" });
}
