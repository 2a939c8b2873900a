// src/anthropic-turn.ts
import type Anthropic from "@anthropic-ai/sdk";
import { budgetFor, REPLY_TOKENS } from "./budget.js";
import { type AgentConversation, appendMessage, loadConversation, type ModelCall, saveSummaryRecords, type TurnResult } from "./conversation.js";
import { runTool, TOOLS } from "./tools.js";

export const CLAUDE_MODEL = "claude-sonnet-4-6";
const SYSTEM = "You are a coding agent working in the ledger service repository. Use the tools; keep the public API unchanged.";

/** The same turn with the Messages API: only the renderer and the reply's shape differ. */
export async function runAnthropicTurn(anthropic: Anthropic, conversation: AgentConversation, userText: string, maxCalls = 8): Promise<TurnResult> {
  const budget = budgetFor(CLAUDE_MODEL, REPLY_TOKENS, conversation.contextLimit);
  const user = await appendMessage(conversation, { role: "user", content: userText });
  const calls: ModelCall[] = [];
  while (calls.length < maxCalls) {
    const { items, summaries } = await loadConversation(conversation);
    const build = await conversation.pipeline.build(items, {
      renderer: "anthropic",
      model: CLAUDE_MODEL,
      system: SYSTEM,
      tools: TOOLS,
      ...budget, // reserveOutputTokens becomes the request's max_tokens
      summaries,
      compression: { loopStartId: user.id },
    });
    const records = await saveSummaryRecords(conversation, build);

    const message = await anthropic.messages.create({
      ...build.request,
      model: CLAUDE_MODEL,
      cache_control: { type: "ephemeral" }, // automatic prompt caching up to the last block
    });
    const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    const toolUses = message.content.flatMap((block) => (block.type === "tool_use" ? [block] : []));
    const usage = message.usage;
    calls.push({
      build,
      records,
      usage: { input: usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0), cached: usage.cache_read_input_tokens ?? 0, output: usage.output_tokens },
      toolCalls: toolUses.map((use) => `${use.name}(${JSON.stringify(use.input)})`),
    });

    // The store keeps one shape for every provider: tool_use blocks become tool_calls.
    await appendMessage(conversation, {
      role: "assistant",
      content: text === "" ? null : text,
      ...(toolUses.length > 0 ? { tool_calls: toolUses.map((use) => ({ id: use.id, type: "function", function: { name: use.name, arguments: JSON.stringify(use.input) } })) } : {}),
    });
    if (toolUses.length === 0) return { answer: text, calls };

    for (const use of toolUses) {
      const { output, isError } = await runTool(use.name, JSON.stringify(use.input));
      await appendMessage(conversation, { role: "tool", tool_call_id: use.id, toolName: use.name, content: output, ...(isError ? { is_error: true } : {}) });
    }
  }
  throw new Error(`no answer after ${maxCalls} model calls`);
}
