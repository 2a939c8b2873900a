// Reads a list of stored Responses items out of metadata.extra.openaiResponses. The field is plain JSON
// a store or an application wrote, so it is checked: an entry that is not an object with a `type`
// cannot be sent as an input item, and is left out with a reason rather than failing the build. The
// entries are copied (as JSON, which is what is sent), so the renderer can freeze what it caches without
// touching what the application stored.
import type { OpenAIResponsesVerbatimItem } from "./openai-responses-request.js";

export interface StoredResponsesItems {
  /** The entries that are Responses items; undefined when the field is absent or not a list. */
  readonly items: ReadonlyArray<OpenAIResponsesVerbatimItem> | undefined;
  /** One sentence per entry or field left out, for the report. */
  readonly problems: ReadonlyArray<string>;
}

const isItem = (value: unknown): value is OpenAIResponsesVerbatimItem =>
  typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as { type?: unknown }).type === "string";

function jsonCopy(entry: OpenAIResponsesVerbatimItem): OpenAIResponsesVerbatimItem | undefined {
  try {
    return JSON.parse(JSON.stringify(entry)) as OpenAIResponsesVerbatimItem;
  } catch {
    // A cycle or a BigInt: nothing a request body can carry.
    return undefined;
  }
}

export function storedResponsesItems(value: unknown, field: "sequence" | "before" | "after" | "outputParts" | "content"): StoredResponsesItems {
  if (value === undefined) return { items: undefined, problems: [] };
  const where = `metadata.extra.openaiResponses.${field}`;
  if (!Array.isArray(value)) return { items: undefined, problems: [`${where} is not a list of Responses items: it is not sent`] };
  const items: OpenAIResponsesVerbatimItem[] = [];
  const problems: string[] = [];
  value.forEach((entry: unknown, index) => {
    const copy = isItem(entry) ? jsonCopy(entry) : undefined;
    if (copy !== undefined) items.push(copy);
    else problems.push(`${where}[${index}] is not a Responses item (a JSON object with a "type"): it is not sent`);
  });
  return { items, problems };
}
