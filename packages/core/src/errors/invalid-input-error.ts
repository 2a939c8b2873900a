// Raised when stored or imported input does not fit the item model. It names the item (index and id)
// and the field path of every problem, so the user can find the record they stored.
import { CtxpipeError } from "./ctxpipe-error.js";
import { ERROR_CODES } from "./error-codes.js";

export interface InputIssue {
  /** Position of the offending record in the input array. */
  readonly index: number;
  /** The record's id, when it has a usable one. */
  readonly id: string | undefined;
  /** Field path inside the record, e.g. `["tool_calls", 0, "function", "name"]`. */
  readonly path: ReadonlyArray<string | number>;
  readonly message: string;
}

export function formatFieldPath(path: ReadonlyArray<string | number>): string {
  if (path.length === 0) return "(record)";
  return path.map((part, position) => (typeof part === "number" ? `[${part}]` : position === 0 ? part : `.${part}`)).join("");
}

function describeIssue(source: string, issue: InputIssue): string {
  const id = issue.id === undefined ? "" : ` (id "${issue.id}")`;
  return `${source}[${issue.index}]${id}, field ${formatFieldPath(issue.path)}: ${issue.message}`;
}

export class InvalidInputError extends CtxpipeError {
  /** What was being read, e.g. "stored message" or "OpenAI message". */
  readonly source: string;
  readonly issues: ReadonlyArray<InputIssue>;
  /** The first issue's index, id and field, for the common single-problem case. */
  readonly index: number;
  readonly id: string | undefined;
  readonly path: ReadonlyArray<string | number>;

  constructor(source: string, issues: ReadonlyArray<InputIssue>) {
    const first = issues[0];
    if (first === undefined) throw new RangeError("InvalidInputError needs at least one issue");
    const more = issues.length > 1 ? `\n${issues.slice(1).map((issue) => `  ${describeIssue(source, issue)}`).join("\n")}` : "";
    super(ERROR_CODES.INPUT_INVALID, `Invalid ${describeIssue(source, first)}${more}`);
    this.name = "InvalidInputError";
    this.source = source;
    this.issues = issues;
    this.index = first.index;
    this.id = first.id;
    this.path = first.path;
  }
}
