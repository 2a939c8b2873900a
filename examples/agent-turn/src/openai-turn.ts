// src/openai-turn.ts
import type OpenAI from "openai";
import { budgetFor, REPLY_TOKENS } from "./budget.js";
import { type AgentConversation, appendMessage, loadConversation, type ModelCall, saveSummaryRecords, type TurnResult } from "./conversation.js";
import { runTool, TOOLS } from "./tools.js";

export const OPENAI_MODEL = "gpt-4o";
const SYSTEM = "You are a coding agent working in the ledger service repository. Use the tools; keep the public API unchanged.";

/** One agent turn: the user's message, then model calls and tool runs until the model answers. */
export async function runOpenAITurn(openai: OpenAI, conversation: AgentConversation, userText: string, maxCalls = 8): Promise<TurnResult> {
  const budget = budgetFor(OPENAI_MODEL, REPLY_TOKENS, conversation.contextLimit);
  const user = await appendMessage(conversation, { role: "user", content: userText });
  const calls: ModelCall[] = [];
  while (calls.length < maxCalls) {
    // Build from the store as it stands: the history, the summaries persisted so far, this turn's messages.
    const { items, summaries } = await loadConversation(conversation);
    const build = await conversation.pipeline.build(items, {
      model: OPENAI_MODEL,
      system: SYSTEM,
      tools: TOOLS,
      ...budget,
      summaries,
      // The current loop (this user message and everything after it) is never compressed.
      compression: { loopStartId: user.id },
    });
    const records = await saveSummaryRecords(conversation, build);

    const completion = await openai.chat.completions.create({
      ...build.request,
      model: OPENAI_MODEL, // build.request has it too, but its type leaves it optional
      max_completion_tokens: budget.reserveOutputTokens,
    });
    const reply = completion.choices[0]!.message;
    const toolCalls = (reply.tool_calls ?? []).flatMap((call) => (call.type === "function" ? [call] : []));
    const usage = completion.usage;
    calls.push({
      build,
      records,
      usage: { input: usage?.prompt_tokens ?? 0, cached: usage?.prompt_tokens_details?.cached_tokens ?? 0, output: usage?.completion_tokens ?? 0 },
      toolCalls: toolCalls.map((call) => `${call.function.name}(${call.function.arguments})`),
    });

    // Persist the answer in the stored shape, tool calls included, before running anything.
    await appendMessage(conversation, {
      role: "assistant",
      content: reply.content,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls.map(({ id, function: { name, arguments: args } }) => ({ id, type: "function", function: { name, arguments: args } })) } : {}),
    });
    if (toolCalls.length === 0) return { answer: reply.content ?? "", calls };

    for (const call of toolCalls) {
      const { output, isError } = await runTool(call.function.name, call.function.arguments);
      await appendMessage(conversation, { role: "tool", tool_call_id: call.id, toolName: call.function.name, content: output, ...(isError ? { is_error: true } : {}) });
    }
  }
  throw new Error(`no answer after ${maxCalls} model calls`);
}
