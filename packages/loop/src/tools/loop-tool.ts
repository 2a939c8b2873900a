// A tool the loop can run: its definition (what the model sees) plus the function that runs it.
import type { ToolDefinitionInput } from "@ctxpipe/core";

export interface ToolRunContext {
  readonly conversationId: string | undefined;
  /** The id of the call being answered: unique in the conversation, the same when the call is run again. Use it as an idempotency key. */
  readonly callId: string;
  /**
   * True when the loop runs the call again because the process that first ran it stopped before its
   * result was saved (the `interruptedToolCalls: "rerun"` option): the first run may have had effects.
   */
  readonly interrupted: boolean;
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
