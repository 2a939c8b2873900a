// Input the CLI refuses: a conversation, summaries, run context or command line it cannot use. Exit
// status 2. Each problem names where it is (file and line or index), the message id and the field.
import { CtxpipeError } from "@ctxpipe/core";

export const CLI_INPUT_INVALID = "CLI_INPUT_INVALID";

export interface CliInputProblem {
  /** The file (or "standard input", or "command line"). */
  readonly source: string;
  /** "line 12" in a JSON-lines file, "index 3" in a JSON array; undefined for the file as a whole. */
  readonly location?: string;
  /** The record's id, when it has a usable one. */
  readonly id?: string;
  /** The field at fault, e.g. "tool_calls[0].function.name"; undefined for the record itself. */
  readonly field?: string;
  readonly message: string;
}

/** How many problems the message lists; the error's `problems` has them all. */
const LISTED = 20;

export function describeProblem(problem: CliInputProblem): string {
  const where = [problem.source, problem.location].filter((part) => part !== undefined).join(" ");
  const id = problem.id === undefined ? "" : ` (id ${JSON.stringify(problem.id)})`;
  const field = problem.field === undefined ? "" : `, field ${problem.field}`;
  return `${where}${id}${field}: ${problem.message}`;
}

export class CliInputError extends CtxpipeError {
  readonly problems: ReadonlyArray<CliInputProblem>;
  readonly exitCode = 2;

  constructor(problems: ReadonlyArray<CliInputProblem>, options?: { cause?: unknown }) {
    const first = problems[0];
    if (first === undefined) throw new RangeError("CliInputError needs at least one problem");
    const rest = problems.slice(1, LISTED).map((problem) => `\n  ${describeProblem(problem)}`);
    const more = problems.length > LISTED ? `\n  … and ${problems.length - LISTED} more` : "";
    super(CLI_INPUT_INVALID, `${describeProblem(first)}${rest.join("")}${more}`, options);
    this.name = "CliInputError";
    this.problems = problems;
  }
}
