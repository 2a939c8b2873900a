// Approximate token count of a Gemini request. Google publishes no tokenizer a library can run
// offline for current Gemini models (the API counts with countTokens; the SDK's experimental
// LocalTokenizer downloads a Gemma vocabulary over the network), so this counts with the build's
// tokenizer: text, the JSON of call arguments and responses, a few tokens per content for the turn
// markers, the system instruction and the JSON of the tool declarations.
import type { Tokenizer } from "@ctxpipe/core";
import type { GeminiPart, GeminiRequest } from "./gemini-request.js";

/** Turn markers around each content, as in Gemini's chat format: start, role, line break, end, line break. */
export const GEMINI_TOKENS_PER_CONTENT = 5;
/**
 * An image or document page: Gemini counts 258 tokens for an image up to 384 pixels a side (larger
 * ones are tiled at 258 a tile) and for each PDF page. Without the size, a media part counts as one.
 */
export const GEMINI_TOKENS_PER_MEDIA_PART = 258;

export function countGeminiPartTokens(part: GeminiPart, tokenizer: Tokenizer): number {
  if ("text" in part) return tokenizer.count(part.text);
  if ("functionCall" in part) return tokenizer.count(part.functionCall.name) + tokenizer.count(JSON.stringify(part.functionCall.args));
  if ("functionResponse" in part) return tokenizer.count(part.functionResponse.name) + tokenizer.count(JSON.stringify(part.functionResponse.response));
  return GEMINI_TOKENS_PER_MEDIA_PART;
}

export function countGeminiPartsTokens(parts: ReadonlyArray<GeminiPart>, tokenizer: Tokenizer): number {
  let total = 0;
  for (const part of parts) total += countGeminiPartTokens(part, tokenizer);
  return total;
}

/**
 * Tokens of a whole request. `partTokens`, when given, is the sum over every part (the system
 * instruction's included) already counted, as the renderer does with its per-item cache.
 */
export function countGeminiTokens(request: GeminiRequest, tokenizer: Tokenizer, partTokens?: number): number {
  const system = request.config?.systemInstruction;
  let total = GEMINI_TOKENS_PER_CONTENT * (request.contents.length + (system === undefined ? 0 : 1));
  if (partTokens !== undefined) total += partTokens;
  else {
    for (const content of request.contents) total += countGeminiPartsTokens(content.parts, tokenizer);
    if (system !== undefined) total += countGeminiPartsTokens(system.parts, tokenizer);
  }
  const tools = request.config?.tools;
  if (tools !== undefined && tools.length > 0) total += tokenizer.count(JSON.stringify(tools));
  return total;
}
