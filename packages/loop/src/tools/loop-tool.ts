// A tool the loop can run: its definition (what the model sees) plus the function that runs it.
import type { ToolDefinitionInput } from "@ctxpipe/core";

export interface ToolRunContext {
  readonly conversationId: string | undefined;
  /** The id of the call being answered. */
  readonly callId: string;
  /** Aborted when the loop is: long-running tools should stop. */
  readonly signal: AbortSignal;
}

export interface LoopTool extends ToolDefinitionInput {
  /** The tool policy's tool category ("fs", "project", "ui"...), matched against the policy's category lists. */
  readonly category?: string;
  /**
   * Runs the call. A string is sent as it is, anything else as JSON; a thrown error becomes a tool
   * result marked as an error, which the model reads on its next turn.
   */
  run(args: Record<string, unknown>, context: ToolRunContext): unknown;
}
