// Runs one tool call the model made and turns whatever happens into a result the model can read:
// unknown tools, arguments that are not a JSON object and thrown errors all become error results.
import type { ModelToolCall } from "../model/model-adapter.js";
import type { LoopTool } from "./loop-tool.js";

export interface ToolCallOutcome {
  readonly content: string;
  readonly isError: boolean;
  readonly durationMs: number;
}

function parseArguments(text: string): Record<string, unknown> | string {
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return `the arguments are not valid JSON (${(error as Error).message})`;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return "the arguments must be a JSON object";
  return parsed as Record<string, unknown>;
}

function resultText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export async function runToolCall(
  call: ModelToolCall,
  tools: ReadonlyMap<string, LoopTool>,
  context: { conversationId: string | undefined; signal: AbortSignal; interrupted?: boolean },
): Promise<ToolCallOutcome> {
  const started = performance.now();
  const finish = (content: string, isError: boolean): ToolCallOutcome => ({ content, isError, durationMs: Math.round(performance.now() - started) });
  const tool = tools.get(call.name);
  if (tool === undefined) {
    const available = [...tools.keys()];
    return finish(`tool "${call.name}" is not available here. Available tools: ${available.length > 0 ? available.join(", ") : "none"}.`, true);
  }
  const args = parseArguments(call.arguments);
  if (typeof args === "string") return finish(`cannot call ${call.name}: ${args}.`, true);
  try {
    const value = await tool.run(args, { conversationId: context.conversationId, callId: call.id, interrupted: context.interrupted ?? false, signal: context.signal });
    return finish(resultText(value), false);
  } catch (error) {
    const message = error instanceof Error ? error.message : resultText(error);
    return finish(`${call.name} failed: ${message}`, true);
  }
}
