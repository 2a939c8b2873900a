// The OpenAI Chat Completions request body, as far as ctxpipe produces it. Kept structurally
// compatible with the `openai` package's ChatCompletionCreateParams without depending on it.
export type OpenAIChatContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" } }
  | { type: "file"; file: { file_data?: string; file_id?: string; filename?: string } };

export interface OpenAIChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type OpenAIChatMessage =
  | { role: "system" | "developer"; content: string; name?: string }
  | { role: "user"; content: string | OpenAIChatContentPart[]; name?: string }
  | { role: "assistant"; content: string | null; tool_calls?: OpenAIChatToolCall[]; name?: string }
  | { role: "tool"; tool_call_id: string; content: string };

export interface OpenAIChatTool {
  type: "function";
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface OpenAIChatRequest {
  model?: string;
  messages: OpenAIChatMessage[];
  tools?: OpenAIChatTool[];
  /** Routes requests that share a prefix to the same prompt cache (renderer or build option promptCacheKey). */
  prompt_cache_key?: string;
}
