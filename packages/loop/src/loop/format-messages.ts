// The texts the loop writes into the conversation, in chat mode's labelled shapes so the model can tell
// a user's words from a script, a data preview or a failed call.
import type { ModelError } from "../model/model-error.js";

/** Chat mode's data context: shown to the model for one call, never stored as history. */
export interface DataContext {
  readonly label: string;
  readonly path: string;
  readonly preview: string;
}

export function formatUserInput(text: string): string {
  return `USER_INPUT\n${text}`;
}

export function formatRunUserInput(stepId: string | undefined, text: string): string {
  return stepId === undefined ? `USER_INPUT\n${text}` : `USER_INPUT (step: ${stepId})\n${text}`;
}

export function formatDataContext(context: DataContext): string {
  return `DATA_CONTEXT\n- Label: ${context.label}\n- Path: ${context.path}\n\n${context.preview}`;
}

/** Chat and run mode: a failed call, persisted as an assistant message the model reads on the next turn. */
export function formatModelFailure(error: ModelError): string {
  const lines = [`LLM_ERROR`, `- Code: ${error.code}`];
  if (error.status !== undefined) lines.push(`- Status: ${error.status}`);
  if (error.providerCode !== undefined) lines.push(`- Provider code: ${error.providerCode}`);
  lines.push(`- Message: ${error.message}`, "", "The previous model call failed before it produced an answer. Continue from where the conversation stands.");
  return lines.join("\n");
}
