// Raised by the validate stage: every rule violation found, each naming the item and the rule.
import { CtxpipeError } from "./ctxpipe-error.js";
import { ERROR_CODES } from "./error-codes.js";

export interface ValidationIssue {
  /** Stable rule id, e.g. "NOT_EMPTY" or "TOOL_RESULT_WITHOUT_CALL". */
  readonly rule: string;
  readonly message: string;
  /** The item concerned, when the rule is about one item. */
  readonly itemId?: string;
  /** Position of that item in the list the validate stage saw. */
  readonly position?: number;
  /** The plugin that reported the issue. */
  readonly plugin: string;
}

export class ContextValidationError extends CtxpipeError {
  readonly issues: ReadonlyArray<ValidationIssue>;

  constructor(issues: ReadonlyArray<ValidationIssue>) {
    const lines = issues.map((issue) => {
      const where = issue.itemId === undefined ? "" : ` (item "${issue.itemId}" at position ${issue.position ?? "?"})`;
      return `  ${issue.rule}${where}: ${issue.message} [reported by ${issue.plugin}]`;
    });
    super(ERROR_CODES.CONTEXT_INVALID, `The built context is not valid:\n${lines.join("\n")}`);
    this.name = "ContextValidationError";
    this.issues = issues;
  }
}
