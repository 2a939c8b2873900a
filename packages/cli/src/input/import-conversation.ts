// Stored message records → items, with core's InvalidInputError turned into problems that point at
// the file's line (or index) instead of a position in an array the user never saw.
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
      message: locatedMessage(issue.message, locations),
    };
  });
}

/**
 * Core numbers the earlier record of a duplicate id by its 0-based position in the list it was given
 * ("record 5", "item 5"), which the user never saw: say where it is in the file instead, as the
 * problem's own location does ("line 7", "index 5").
 */
function locatedMessage(message: string, locations: ReadonlyArray<string>): string {
  return message.replace(/^duplicate id: (?:record|item) (\d+) has/, (whole, index: string) => {
    const location = locations[Number(index)];
    return location === undefined ? whole : `duplicate id: the message at ${location} has`;
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
