// The request body as the provider's HTTP API takes it. The renderers' outputs are already that, but
// for Gemini, whose renderer follows the @google/genai SDK: its REST body carries systemInstruction
// and tools at the top level, and the model in the URL.
import type { Provider } from "../args/cli-options.js";

interface SdkGeminiRequest {
  readonly model?: string;
  readonly contents: unknown;
  readonly config?: { readonly systemInstruction?: unknown; readonly tools?: unknown };
}

export function providerRequest(provider: Provider, rendered: unknown): unknown {
  if (provider !== "gemini") return rendered;
  const request = rendered as SdkGeminiRequest;
  return {
    ...(request.config?.systemInstruction === undefined ? {} : { systemInstruction: request.config.systemInstruction }),
    contents: request.contents,
    ...(request.config?.tools === undefined ? {} : { tools: request.config.tools }),
  };
}
