// The request body of OpenAI's Responses API (`POST /v1/responses`, the SDK's responses.create), as the
// "openai-responses" renderer produces it. Only what the renderer writes is typed; the SDK type test
// (openai-responses-request.test-d.ts) keeps each shape assignable to the SDK's own.

/**
 * Text, image or file content of a user, system or developer message: the item's text and attachments,
 * or the content list stored with it, sent back as it was (an image by file id or of detail "original",
 * a file by URL).
 */
export type OpenAIResponsesInputContent =
  | { type: "input_text"; text: string }
  | { type: "input_image"; detail: "auto" | "low" | "high" | "original"; image_url?: string | null; file_id?: string | null }
  // A stored file may carry both its data and a provider file id: both are sent, nothing is chosen away.
  | { type: "input_file"; file_data?: string; file_id?: string | null; file_url?: string; filename?: string; detail?: "auto" | "low" | "high" };

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

/** A citation the model put in its text (web search, file search, code interpreter), sent back as the API gave it. */
export type OpenAIResponsesAnnotation =
  | { type: "url_citation"; url: string; title: string; start_index: number; end_index: number }
  | { type: "file_citation"; file_id: string; filename: string; index: number }
  | { type: "container_file_citation"; container_id: string; file_id: string; filename: string; start_index: number; end_index: number }
  | { type: "file_path"; file_id: string; index: number };

/** The log probabilities of an output text's tokens, when the response was asked for them. */
export interface OpenAIResponsesLogprob {
  token: string;
  bytes: number[];
  logprob: number;
  top_logprobs: Array<{ token: string; bytes: number[]; logprob: number }>;
}

/** Content of an assistant message sent back with its id: its text with its citations, or a refusal. */
export type OpenAIResponsesOutputMessageContent =
  | { type: "output_text"; text: string; annotations: OpenAIResponsesAnnotation[]; logprobs?: OpenAIResponsesLogprob[] }
  | { type: "refusal"; refusal: string };

/**
 * An assistant message sent back with the id the API gave it (needed when its reasoning item is sent
 * too), with the content the API gave it while the item's text is unchanged.
 */
export interface OpenAIResponsesOutputMessage {
  type: "message";
  role: "assistant";
  id: string;
  status: "completed" | "incomplete";
  content: OpenAIResponsesOutputMessageContent[];
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
  /** The namespace of the tool called (a tool of an MCP server or a tool group), as the API gave it. */
  namespace?: string;
}

/** A tool's output content when it is more than text. */
export type OpenAIResponsesOutputContent =
  | { type: "input_text"; text: string }
  | { type: "input_image"; detail?: "auto" | "low" | "high" | "original"; image_url?: string | null; file_id?: string | null }
  | { type: "input_file"; file_data?: string; file_id?: string | null; file_url?: string; filename?: string };

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
 * stored with the conversation and sent back exactly as it was. It is not a member of
 * OpenAIResponsesInputItem, so that a request is the SDK's as typed; `input` may carry such items all the same.
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
  | OpenAIResponsesReasoningItem;

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
  /**
   * The conversation's items. Typed as the items ctxpipe writes, so the request goes to the SDK's
   * responses.create as it is; it may also carry stored items of other types (web_search_call,
   * compaction, item_reference …) passed through verbatim (OpenAIResponsesVerbatimItem).
   */
  input: OpenAIResponsesInputItem[];
  tools?: OpenAIResponsesFunctionTool[];
  /** The answer's room: the build's reserveOutputTokens, or the renderer's maxOutputTokens option. */
  max_output_tokens?: number;
  /** Routes requests that share a prefix to the same cache. */
  prompt_cache_key?: string;
  /** false (the renderer's store option): the API keeps nothing of the request or its answer. */
  store?: boolean;
}
