// Raised by the validate stage: every rule violation found, each naming the rule, the item or the
// place in the request, and the error text the provider would have answered with.
import type { RuleLevel } from "../spec/rule.js";
import { CtxpipeError } from "./ctxpipe-error.js";
import { ERROR_CODES } from "./error-codes.js";

export interface ValidationIssue {
  /** Stable rule id, e.g. "TOOL_RESULT_WITHOUT_CALL" or "ANT-006". */
  readonly rule: string;
  readonly level: RuleLevel;
  readonly message: string;
  /** "items": found in the item list before render; "request": found in the rendered request. */
  readonly phase: "items" | "request";
  /** The item concerned, when the rule is about one item (for request issues: the first item of the message). */
  readonly itemId?: string;
  /** Position of that item in the list the validate stage saw. */
  readonly position?: number;
  /** Where in the rendered request, e.g. "messages[3].tool_calls[0].id". */
  readonly path?: string;
  readonly messageIndex?: number;
  /** The provider's own error text for this violation. */
  readonly providerError?: string;
  /** The plugin that reported the issue. */
  readonly plugin: string;
}

export function describeIssue(issue: ValidationIssue): string {
  const where: string[] = [];
  if (issue.itemId !== undefined) where.push(`item "${issue.itemId}"${issue.position === undefined ? "" : ` at position ${issue.position}`}`);
  if (issue.path !== undefined) where.push(issue.path);
  const place = where.length === 0 ? "" : ` (${where.join(", ")})`;
  const provider = issue.providerError === undefined ? "" : `\n      the provider answers: ${issue.providerError}`;
  return `${issue.rule} [${issue.level}]${place}: ${issue.message} [reported by ${issue.plugin}]${provider}`;
}

export class ContextValidationError extends CtxpipeError {
  readonly issues: ReadonlyArray<ValidationIssue>;

  constructor(issues: ReadonlyArray<ValidationIssue>) {
    const lines = issues.map((issue) => `  ${describeIssue(issue)}`);
    super(ERROR_CODES.CONTEXT_INVALID, `The built context is not valid:\n${lines.join("\n")}`);
    this.name = "ContextValidationError";
    this.issues = issues;
  }
}
