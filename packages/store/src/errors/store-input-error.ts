// A message or summary record the store refuses to append; nothing of the batch is written.
import { CtxpipeError } from "@ctxpipe/core";

export const STORE_INPUT_INVALID = "STORE_INPUT_INVALID";

export interface StoreInputIssue {
  /** Position in the batch given to append. */
  readonly index: number;
  /** The record's id, when it has a usable one. */
  readonly id?: string;
  /** The field at fault, as a path ("role", "tool_calls.0.id"), or "" for the record itself. */
  readonly field: string;
  readonly message: string;
}

export class StoreInputError extends CtxpipeError {
  readonly conversationId: string;
  readonly issues: ReadonlyArray<StoreInputIssue>;

  constructor(conversationId: string, issues: ReadonlyArray<StoreInputIssue>) {
    const lines = issues.map((issue) => `  [${issue.index}]${issue.id === undefined ? "" : ` (id ${JSON.stringify(issue.id)})`} ${issue.field || "(record)"}: ${issue.message}`);
    super(STORE_INPUT_INVALID, `Cannot append to conversation ${JSON.stringify(conversationId)}:\n${lines.join("\n")}`);
    this.name = "StoreInputError";
    this.conversationId = conversationId;
    this.issues = issues;
  }
}
