// Test helpers, written apart from the package's rule table so the tests do not grade the renderer
// with its own rules: a strict check of what a LangChain model receives, and the same messages
// converted without any repair to the OpenAI Chat Completions and Anthropic Messages shapes.
import { checkRules, openAIChatRules, type Tokenizer } from "@ctxpipe/core";
import { anthropicMessagesRules } from "@ctxpipe/renderers";
import type { BaseMessage } from "@langchain/core/messages";
import { countLangChainTokens } from "../renderer/count-langchain-tokens.js";
import { toOpenAIChatMessage } from "../renderer/to-openai-chat-message.js";

type Calls = Array<{ id?: string; name: string; args: unknown }>;
const callsOf = (message: BaseMessage): Calls => (message.type === "ai" ? (((message as { tool_calls?: Calls }).tool_calls ?? []) as Calls) : []);
const callIdOf = (message: BaseMessage): string | undefined => (message as { tool_call_id?: string }).tool_call_id;

function isEmpty(message: BaseMessage): boolean {
  if (callsOf(message).length > 0) return false;
  if (typeof message.content === "string") return message.content.trim().length === 0;
  return message.content.length === 0;
}

export interface StrictCheckOptions {
  /** The budget the whole call must fit in, counted with `tokenizer`. */
  readonly budget?: { readonly maxTokens: number; readonly tokenizer: Tokenizer };
}

/**
 * Problems of the messages a model receives (its system message first, if any), in words: every tool
 * call answered by a tool message of the same id right after it, once; no orphan tool message, no
 * duplicate message or call id, no empty message, no system message but first, within the budget.
 */
export function strictRequestProblems(messages: ReadonlyArray<BaseMessage>, options: StrictCheckOptions = {}): string[] {
  const problems: string[] = [];
  const messageIds = new Set<string>();
  const callIds = new Set<string>();
  const answeredIds = new Set<string>();
  messages.forEach((message, index) => {
    if (message.id !== undefined) {
      if (messageIds.has(message.id)) problems.push(`messages[${index}]: the id "${message.id}" is a duplicate`);
      messageIds.add(message.id);
    }
    if (isEmpty(message)) problems.push(`messages[${index}] (${message.type}) is empty`);
    if (message.type === "system" && index > 0) problems.push(`messages[${index}] is a system message after the first`);
    const calls = callsOf(message);
    const answered = new Set<string>();
    for (let next = index + 1; next < messages.length && messages[next]!.type === "tool"; next++) answered.add(callIdOf(messages[next]!) ?? "");
    for (const call of calls) {
      if (call.id === undefined || call.id === "") problems.push(`messages[${index}]: a tool call without an id`);
      else if (callIds.has(call.id)) problems.push(`messages[${index}]: the call id "${call.id}" is a duplicate`);
      else if (!answered.has(call.id)) problems.push(`messages[${index}]: the call "${call.id}" is not answered right after it`);
      if (call.id !== undefined) callIds.add(call.id);
    }
    if (message.type === "tool") {
      let owner = index - 1;
      while (owner >= 0 && messages[owner]!.type === "tool") owner--;
      const id = callIdOf(message);
      if (owner < 0 || !callsOf(messages[owner]!).some((call) => call.id === id)) problems.push(`messages[${index}]: the tool message answers "${id}", no call right before it`);
      else if (answeredIds.has(id ?? "")) problems.push(`messages[${index}]: the call "${id}" is answered again`);
      answeredIds.add(id ?? "");
    }
    if ((message as { invalid_tool_calls?: unknown[] }).invalid_tool_calls?.length) problems.push(`messages[${index}]: carries invalid tool calls`);
  });
  if (options.budget !== undefined) {
    const tokens = countLangChainTokens(messages as BaseMessage[], options.budget.tokenizer);
    if (tokens > options.budget.maxTokens) problems.push(`${tokens} tokens, over the budget of ${options.budget.maxTokens}`);
  }
  return problems;
}

/** OpenAI Chat Completions rule violations of the messages as @langchain/openai would send them. */
export function openAIProblems(messages: ReadonlyArray<BaseMessage>): string[] {
  const request = { model: "gpt-4o", messages: messages.map((message) => toOpenAIChatMessage(message)) };
  return checkRules(openAIChatRules, request, { model: "gpt-4o" }).map((violation) => `${violation.rule} at ${violation.path ?? "?"}: ${violation.message}`);
}

type AnthropicBlock = Record<string, unknown>;

function textBlocks(content: BaseMessage["content"]): AnthropicBlock[] {
  if (typeof content === "string") return content.length === 0 ? [] : [{ type: "text", text: content }];
  return content.flatMap((block) => (typeof block === "object" && block !== null && block.type === "text" ? [{ type: "text", text: (block as { text: string }).text }] : []));
}

/** Anthropic Messages rule violations of the messages as @langchain/anthropic would send them: system apart, tool results in user turns. */
export function anthropicProblems(messages: ReadonlyArray<BaseMessage>): string[] {
  let system: string | undefined;
  const turns: Array<{ role: "user" | "assistant"; content: AnthropicBlock[] }> = [];
  messages.forEach((message, index) => {
    if (message.type === "system" && index === 0) {
      system = message.text;
      return;
    }
    let role: "user" | "assistant";
    let blocks: AnthropicBlock[];
    if (message.type === "ai") {
      role = "assistant";
      blocks = [...textBlocks(message.content), ...callsOf(message).map((call) => ({ type: "tool_use", id: call.id ?? "", name: call.name, input: call.args }))];
    } else if (message.type === "tool") {
      role = "user";
      blocks = [{ type: "tool_result", tool_use_id: callIdOf(message) ?? "", content: message.text }];
    } else {
      // A human message, or a system message out of place (which @langchain/anthropic refuses; sent as user text here).
      role = "user";
      blocks = textBlocks(message.content);
    }
    // Consecutive turns of one role are one turn: tool results of parallel calls share a user turn.
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  });
  const request = { model: "claude-sonnet-4-6", max_tokens: 1024, ...(system === undefined ? {} : { system }), messages: turns };
  return checkRules(anthropicMessagesRules, request as never, { model: "claude-sonnet-4-6" }).map((violation) => `${violation.rule} at ${violation.path ?? "?"}: ${violation.message}`);
}
