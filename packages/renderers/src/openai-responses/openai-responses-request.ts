// The request body of OpenAI's Responses API (`POST /v1/responses`, the SDK's responses.create), as the
// "openai-responses" renderer produces it. Only what the renderer writes is typed; the SDK type test
// (openai-responses-request.test-d.ts) keeps each shape assignable to the SDK's own.

/** Text, image or file content of a user, system or developer message. */
export type OpenAIResponsesInputContent =
  | { type: "input_text"; text: string }
  | { type: "input_image"; detail: "auto" | "low" | "high"; image_url: string }
  | { type: "input_image"; detail: "auto" | "low" | "high"; file_id: string }
  // A stored file may carry both its data and a provider file id: both are sent, nothing is chosen away.
  | { type: "input_file"; file_data: string; file_id?: string; filename?: string }
  | { type: "input_file"; file_id: string; filename?: string };

/** A user, system or developer message: plain text, or a list when it carries images or files. */
export interface OpenAIResponsesInputMessage {
  type: "message";
  role: "user" | "system" | "developer";
  content: string | OpenAIResponsesInputContent[];
}

/** An assistant message sent without an id: text the model wrote earlier, no reasoning tied to it. */
export interface OpenAIResponsesAssistantMessage {
  type: "message";
  role: "assistant";
  content: string;
  phase?: "commentary" | "final_answer";
}

/** An assistant message sent back with the id the API gave it (needed when its reasoning item is sent too). */
export interface OpenAIResponsesOutputMessage {
  type: "message";
  role: "assistant";
  id: string;
  status: "completed" | "incomplete";
  content: Array<{ type: "output_text"; text: string; annotations: [] }>;
  phase?: "commentary" | "final_answer";
}

export interface OpenAIResponsesFunctionCall {
  type: "function_call";
  /** Pairs the call with its function_call_output. */
  call_id: string;
  name: string;
  /** The arguments as JSON text, as the model produced them. */
  arguments: string;
  /** The item id the API gave the call ("fc_…"); sent only together with the call's reasoning. */
  id?: string;
}

/** A tool's output content when it is more than text. */
export type OpenAIResponsesOutputContent =
  | { type: "input_text"; text: string }
  | { type: "input_image"; detail?: "auto" | "low" | "high"; image_url?: string; file_id?: string }
  | { type: "input_file"; file_data?: string; file_id?: string; file_url?: string; filename?: string };

export interface OpenAIResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string | OpenAIResponsesOutputContent[];
}

/** A reasoning item, sent back as the API returned it so a reasoning model keeps its chain across calls. */
export interface OpenAIResponsesReasoningItem {
  type: "reasoning";
  id: string;
  summary: Array<{ type: "summary_text"; text: string }>;
  /** Present when the response was requested with include: ["reasoning.encrypted_content"] (store: false). */
  encrypted_content?: string | null;
  content?: Array<{ type: "reasoning_text"; text: string }>;
}

/**
 * An item of a type ctxpipe has no model for (web_search_call, compaction, item_reference, mcp_call …),
 * stored with the conversation and sent back exactly as it was.
 */
export interface OpenAIResponsesVerbatimItem {
  type: string;
  [field: string]: unknown;
}

export type OpenAIResponsesInputItem =
  | OpenAIResponsesInputMessage
  | OpenAIResponsesAssistantMessage
  | OpenAIResponsesOutputMessage
  | OpenAIResponsesFunctionCall
  | OpenAIResponsesFunctionCallOutput
  | OpenAIResponsesReasoningItem
  | OpenAIResponsesVerbatimItem;

/** A function tool in the Responses format: flat, unlike Chat Completions' `{ type, function: {…} }`. */
export interface OpenAIResponsesFunctionTool {
  type: "function";
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  /** false: the parameters are a description for the model, not a schema the API enforces (the SDK requires the field). */
  strict: boolean;
}

export interface OpenAIResponsesRequest {
  /** Left out when the build names no model. */
  model?: string;
  /** The system prompt: the conversation's first system messages. */
  instructions?: string;
  input: OpenAIResponsesInputItem[];
  tools?: OpenAIResponsesFunctionTool[];
  /** The answer's room: the build's reserveOutputTokens, or the renderer's maxOutputTokens option. */
  max_output_tokens?: number;
  /** Routes requests that share a prefix to the same cache. */
  prompt_cache_key?: string;
}
