// Stored message records (or stored Responses API items) → items, with core's InvalidInputError turned
// into problems that point at the file's line (or index) instead of a position in an array the user
// never saw. A repeated id is not a problem: the build leaves an exact copy out and sends an edit in
// the earlier version's place.
import { importOpenAIResponsesItems, importStoredMessages, InvalidInputError, type Item } from "@ctxpipe/core";
import type { InputShape } from "../args/cli-options.js";
import { CliInputError, type CliInputProblem } from "../cli/cli-input-error.js";
import { detectInputShape } from "./detect-input-shape.js";
import { formatFieldPath } from "./format-field-path.js";

/** The ids of items read from Responses items: `item-<index of the first record it was made from>`. */
const RESPONSES_ID_PREFIX = "item-";

export interface ImportedConversation {
  readonly shape: "stored" | "openai-responses";
  readonly items: Item[];
  /** Where items[i] is in the source: its record's line or index (for a Responses turn, its first record's). */
  readonly locations: ReadonlyArray<string>;
}

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

export function importConversation(records: ReadonlyArray<unknown>, locations: ReadonlyArray<string>, source: string, requested: InputShape = "auto"): ImportedConversation {
  const shape = detectInputShape(records, locations, source, requested);
  try {
    if (shape === "stored") return { shape, items: importStoredMessages(records), locations };
    const items = importOpenAIResponsesItems(records, { idPrefix: RESPONSES_ID_PREFIX });
    const itemLocations = items.map((item) => {
      const index = Number(item.id.slice(RESPONSES_ID_PREFIX.length));
      return locations[index] ?? `index ${index}`;
    });
    return { shape, items, locations: itemLocations };
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    throw new CliInputError(problemsOf(error, locations, source), { cause: error });
  }
}
