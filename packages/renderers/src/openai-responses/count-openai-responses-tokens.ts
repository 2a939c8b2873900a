// Token count of a Responses request. OpenAI publishes no formula for this API; the server writes the
// same prompt for a conversation whichever API carried it, so each input item is counted as its Chat
// Completions counterpart (countOpenAIChatTokens):
//
//   3 (the reply is primed)
// + the instructions: 3 + tokens("developer") + tokens(instructions), as a leading system message
// + per message: 3 + tokens(role) + tokens(content); an image part 85 (low detail) or 765, a file part its JSON
// + per function_call: 3 + tokens(name) + tokens(arguments), as a tool call inside an assistant message
// + per function_call_output: 3 + tokens("tool") + tokens(output), as a tool message
// + per reasoning item: 3 + tokens of its summary and reasoning texts; `encrypted_content` is not counted
// + per item of another type: 3 + tokens(its JSON)
// + tool definitions: the Chat Completions tool formula (countOpenAIChatToolTokens).
//
// Text messages and tool definitions count as the Chat formula does, which matches the API. Function
// calls follow no published formula, and reasoning sent back is an estimate: the encrypted content is
// the model's whole reasoning, opaque here, which the model reads again in its own tokens; the summary
// is the only part whose size is known. Calibrate with the usage the API reports (docs/budget.md).
import { countOpenAIChatToolTokens, type Tokenizer } from "@ctxpipe/core";
import type { OpenAIResponsesFunctionTool, OpenAIResponsesInputItem, OpenAIResponsesRequest, OpenAIResponsesVerbatimItem } from "./openai-responses-request.js";

export const OPENAI_RESPONSES_TOKENS_PER_ITEM = 3;
/** Tokens OpenAI adds to every request to prime the reply. */
export const OPENAI_RESPONSES_REPLY_PRIMING = 3;
const LOW_DETAIL_IMAGE = 85;
const HIGH_DETAIL_IMAGE = 765;

function partTokens(part: unknown, tokenizer: Tokenizer): number {
  if (typeof part !== "object" || part === null) return tokenizer.count(JSON.stringify(part) ?? "");
  const { type, text, detail, refusal } = part as { type?: unknown; text?: unknown; detail?: unknown; refusal?: unknown };
  if ((type === "input_text" || type === "output_text") && typeof text === "string") return tokenizer.count(text);
  if (type === "refusal" && typeof refusal === "string") return tokenizer.count(refusal);
  // Images are billed by tiles, not by the length of their URL; without the pixel size a high detail
  // image counts as a 1024x1024 one: 85 + 4 tiles x 170.
  if (type === "input_image") return detail === "low" ? LOW_DETAIL_IMAGE : HIGH_DETAIL_IMAGE;
  return tokenizer.count(JSON.stringify(part));
}

function contentTokens(content: unknown, tokenizer: Tokenizer, stringTokens?: number): number {
  if (typeof content === "string") return stringTokens ?? tokenizer.count(content);
  if (!Array.isArray(content)) return 0;
  let total = 0;
  for (const part of content) total += partTokens(part, tokenizer);
  return total;
}

function reasoningTexts(item: { readonly summary?: unknown; readonly content?: unknown }): string[] {
  const texts: string[] = [];
  for (const list of [item.summary, item.content]) {
    if (!Array.isArray(list)) continue;
    for (const part of list) if (typeof part === "object" && part !== null && typeof part.text === "string") texts.push(part.text);
  }
  return texts;
}

/**
 * One input item. `stringContentTokens`: the count of a message's string content or a call output's
 * string output, when the caller has it (the renderer reuses the item's count from the compress stage).
 */
export function countOpenAIResponsesInputItemTokens(item: OpenAIResponsesInputItem | OpenAIResponsesVerbatimItem, tokenizer: Tokenizer, stringContentTokens?: number): number {
  const fields = item as { type: string; role?: unknown; content?: unknown; name?: unknown; arguments?: unknown; output?: unknown };
  switch (fields.type) {
    case "message":
      return OPENAI_RESPONSES_TOKENS_PER_ITEM + tokenizer.count(String(fields.role)) + contentTokens(fields.content, tokenizer, stringContentTokens);
    case "function_call":
      return OPENAI_RESPONSES_TOKENS_PER_ITEM + tokenizer.count(String(fields.name)) + tokenizer.count(String(fields.arguments));
    case "function_call_output":
      return OPENAI_RESPONSES_TOKENS_PER_ITEM + tokenizer.count("tool") + contentTokens(fields.output, tokenizer, stringContentTokens);
    case "reasoning":
      return OPENAI_RESPONSES_TOKENS_PER_ITEM + reasoningTexts(item as { summary?: unknown; content?: unknown }).reduce((total, text) => total + tokenizer.count(text), 0);
    default:
      return OPENAI_RESPONSES_TOKENS_PER_ITEM + tokenizer.count(JSON.stringify(item));
  }
}

/** The instructions, counted as the leading system message they stand for. */
export function countOpenAIResponsesInstructionsTokens(instructions: string, tokenizer: Tokenizer): number {
  return OPENAI_RESPONSES_TOKENS_PER_ITEM + tokenizer.count("developer") + tokenizer.count(instructions);
}

/** Tool definitions, by the Chat Completions formula: the model reads both formats' tools the same way. */
export function countOpenAIResponsesToolTokens(tools: ReadonlyArray<OpenAIResponsesFunctionTool>, tokenizer: Tokenizer): number {
  return countOpenAIChatToolTokens(
    tools.map((tool) => ({
      type: "function" as const,
      function: { name: tool.name, parameters: tool.parameters, ...(tool.description === undefined ? {} : { description: tool.description }) },
    })),
    tokenizer,
  );
}

/** The whole request; `inputTokens[i]`, when given, is input[i]'s count (a renderer's cache). */
export function countOpenAIResponsesTokens(request: OpenAIResponsesRequest, tokenizer: Tokenizer, inputTokens?: ReadonlyArray<number>): number {
  let total = OPENAI_RESPONSES_REPLY_PRIMING;
  if (request.instructions !== undefined) total += countOpenAIResponsesInstructionsTokens(request.instructions, tokenizer);
  request.input.forEach((item, index) => {
    total += inputTokens?.[index] ?? countOpenAIResponsesInputItemTokens(item, tokenizer);
  });
  if (request.tools !== undefined) total += countOpenAIResponsesToolTokens(request.tools, tokenizer);
  return total;
}
