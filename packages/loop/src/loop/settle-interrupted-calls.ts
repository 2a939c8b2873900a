// A process that dies after persisting an answer with tool calls and before persisting all their
// results leaves calls without results. Before anything new is persisted, the next loop call settles
// them, so every call in the log is followed by its results and the model is told what happened,
// instead of the build's repair stage answering them silently.
import { PluginOptionsError } from "@ctxpipe/core";
import type { StoredMessage } from "@ctxpipe/store";
import type { ModelToolCall } from "../model/model-adapter.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { runToolCall } from "../tools/run-tool-call.js";
import type { ConversationLog } from "./conversation-log.js";
import type { LoopEventEmitter } from "./loop-events.js";
import { type MessageFactory, stampMessage } from "./message-stamp.js";

/**
 * What the loop does with a call whose result was never persisted: "answer" persists a result saying
 * the call was interrupted and not run again (a tool with side effects is not run twice); "rerun" runs
 * the tool again, its context saying `interrupted: true`.
 */
export type InterruptedToolCallsPolicy = "answer" | "rerun";

export const DEFAULT_INTERRUPTED_TOOL_CALLS: InterruptedToolCallsPolicy = "answer";

/** The loops' `interruptedToolCalls` option, checked; default "answer". */
export function interruptedToolCallsOption(owner: string, value: unknown): InterruptedToolCallsPolicy {
  if (value === undefined) return DEFAULT_INTERRUPTED_TOOL_CALLS;
  if (value === "answer" || value === "rerun") return value;
  throw new PluginOptionsError(owner, `interruptedToolCalls: must be "answer" or "rerun", got ${JSON.stringify(value) ?? String(value)}`);
}

/** The text the model reads for a call answered "interrupted". */
export function interruptedCallText(name: string): string {
  return `This call to ${name} was interrupted before its result was saved, and it was not run again: it may or may not have taken effect. Check before calling it again.`;
}

function readStoredCall(call: unknown): ModelToolCall | undefined {
  if (typeof call !== "object" || call === null) return undefined;
  const record = call as { id?: unknown; name?: unknown; arguments?: unknown; function?: { name?: unknown; arguments?: unknown } };
  const name = record.function?.name ?? record.name;
  const args = record.function?.arguments ?? record.arguments;
  if (typeof record.id !== "string" || record.id === "" || typeof name !== "string") return undefined;
  return { id: record.id, name, arguments: typeof args === "string" ? args : args === undefined ? "" : (JSON.stringify(args) ?? "") };
}

/**
 * The calls of the log's newest assistant message that have no result after it. Results can only be
 * appended right after their call, so when anything but tool results follows that message, there is
 * nothing to settle here (the build's repair stage still answers such calls in the request).
 */
export function interruptedCallsOf(messages: ReadonlyArray<StoredMessage>): ModelToolCall[] {
  const newest = messages.findLastIndex((message) => message.role === "assistant");
  if (newest === -1) return [];
  const after = messages.slice(newest + 1);
  if (after.some((message) => message.role !== "tool")) return [];
  const answered = new Set(after.map((message) => message.tool_call_id));
  const calls = (messages[newest]!.tool_calls ?? []).map(readStoredCall).filter((call) => call !== undefined);
  return calls.filter((call, index) => !answered.has(call.id) && calls.findIndex((other) => other.id === call.id) === index);
}

export interface SettleInterruptedCallsParams {
  readonly log: ConversationLog;
  /** The tools the call may run (a rerun of a tool not among them is answered as unavailable). */
  readonly tools: ReadonlyArray<LoopTool>;
  readonly messages: MessageFactory;
  readonly policy: InterruptedToolCallsPolicy;
  readonly signal: AbortSignal;
  readonly events: LoopEventEmitter;
}

/**
 * Settles the calls of the log's newest answer that have no result: persists, for each, either a
 * result saying it was interrupted (policy "answer") or the result of running it again ("rerun").
 * Returns the messages it persisted. Once the signal fires, the calls left are answered rather than
 * run, so that no call is left without a result.
 */
export async function settleInterruptedCalls(params: SettleInterruptedCallsParams): Promise<StoredMessage[]> {
  const { log, signal, events } = params;
  const calls = interruptedCallsOf((await log.load()).messages);
  if (calls.length === 0) return [];
  const tools = new Map(params.tools.map((tool) => [tool.name, tool]));
  const persisted: StoredMessage[] = [];
  for (const call of calls) {
    const rerun = params.policy === "rerun" && !signal.aborted;
    events.emit({ type: "call-interrupted", call, settledBy: rerun ? "rerun" : "answer" });
    const common = { role: "tool", tool_call_id: call.id, toolName: call.name, partType: "tool_result", interrupted: true } as const;
    let message: StoredMessage;
    let outcome: Awaited<ReturnType<typeof runToolCall>> | undefined;
    if (rerun) {
      outcome = await runToolCall(call, tools, { conversationId: log.conversationId, signal, interrupted: true });
      message = stampMessage(params.messages, { ...common, content: outcome.content, rerun: true, duration: outcome.durationMs, ...(outcome.isError ? { is_error: true } : {}) });
    } else {
      message = stampMessage(params.messages, { ...common, content: interruptedCallText(call.name), is_error: true });
    }
    await log.append([message]);
    persisted.push(message);
    events.emit({ type: "persisted", message });
    if (outcome !== undefined) events.emit({ type: "tool-ran", call, content: outcome.content, isError: outcome.isError, durationMs: outcome.durationMs });
  }
  return persisted;
}
