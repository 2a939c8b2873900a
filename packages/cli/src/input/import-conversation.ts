// Stored message records → items, with core's InvalidInputError turned into problems that point at
// the file's line (or index) instead of a position in an array the user never saw. A repeated id is
// not a problem: the build leaves an exact copy out and sends an edit in the earlier version's place.
import { importStoredMessages, InvalidInputError, type Item } from "@ctxpipe/core";
import { CliInputError, type CliInputProblem } from "../cli/cli-input-error.js";
import { formatFieldPath } from "./format-field-path.js";

/** Core's issues, located in the file: each record's line (or index), its id and the field. */
export function problemsOf(error: InvalidInputError, locations: ReadonlyArray<string>, source: string): CliInputProblem[] {
  return error.issues.map((issue) => {
    const field = formatFieldPath(issue.path);
    return {
      source,
      location: locations[issue.index] ?? `index ${issue.index}`,
      ...(issue.id === undefined ? {} : { id: issue.id }),
      ...(field === undefined ? {} : { field }),
      message: issue.message,
    };
  });
}

export function importConversation(records: ReadonlyArray<unknown>, locations: ReadonlyArray<string>, source: string): Item[] {
  try {
    return importStoredMessages(records);
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    throw new CliInputError(problemsOf(error, locations, source), { cause: error });
  }
}
