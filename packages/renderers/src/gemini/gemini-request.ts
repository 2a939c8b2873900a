// The Gemini generateContent request, as far as ctxpipe produces it, in the shape of the @google/genai
// SDK's GenerateContentParameters; structurally compatible with it without importing the SDK.
//
// Sending it without the SDK: the REST body of POST /v1beta/models/{model}:generateContent is
// { contents, systemInstruction, tools }: the model goes in the URL, and config.systemInstruction and
// config.tools move to the top level of the body (the SDK does exactly this move).

export interface GeminiTextPart {
  text: string;
}

export interface GeminiInlineDataPart {
  /** Base64 bytes, without a data: URL prefix. */
  inlineData: { mimeType: string; data: string };
}

export interface GeminiFileDataPart {
  /** A Files API URI, an https: URL or a gs:// URI. */
  fileData: { fileUri: string; mimeType?: string };
}

export interface GeminiFunctionCall {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export interface GeminiFunctionCallPart {
  functionCall: GeminiFunctionCall;
  /** Gemini 3 signs the calls it makes; a replayed call must carry its signature back. */
  thoughtSignature?: string;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  /** A JSON object: { output } for a result, { error } for a failed call (js-genai's documented keys). */
  response: Record<string, unknown>;
}

export interface GeminiFunctionResponsePart {
  functionResponse: GeminiFunctionResponse;
}

/** Exactly one data field per part (GEM-004). */
export type GeminiPart = GeminiTextPart | GeminiInlineDataPart | GeminiFileDataPart | GeminiFunctionCallPart | GeminiFunctionResponsePart;

export interface GeminiContent {
  role: "user" | "model";
  parts: GeminiPart[];
}

export interface GeminiSystemInstruction {
  parts: GeminiTextPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** The tool's JSON Schema, sent as is (the SDK's alternative to its own Schema type). */
  parametersJsonSchema: Record<string, unknown>;
}

export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

export interface GeminiGenerateContentConfig {
  systemInstruction?: GeminiSystemInstruction;
  tools?: GeminiTool[];
  /**
   * The name of a cached content ("cachedContents/…") the request continues: its system instruction,
   * tools and contents come first. The request then sets no system instruction or tools (GEM-022).
   */
  cachedContent?: string;
}

export interface GeminiRequest {
  model?: string;
  contents: GeminiContent[];
  config?: GeminiGenerateContentConfig;
}
