// Tells a conversation stored as messages (the stored-message shape, Chat Completions style) from one
// stored as items of OpenAI's Responses API, and refuses a conversation that holds both. The rule is
// written out in docs/cli.md ("Conversations stored as Responses items").
import type { InputShape } from "../args/cli-options.js";
import { CliInputError, type CliInputProblem } from "../cli/cli-input-error.js";

/** Item types only the Responses API has (a `message` may be either shape: see responsesEvidence). */
export const RESPONSES_ONLY_ITEM_TYPES: ReadonlySet<string> = new Set([
  "function_call",
  "function_call_output",
  "reasoning",
  "item_reference",
  "compaction",
  "compaction_trigger",
  "additional_tools",
  "configuration_update",
  "web_search_call",
  "file_search_call",
  "computer_call",
  "computer_call_output",
  "code_interpreter_call",
  "image_generation_call",
  "local_shell_call",
  "local_shell_call_output",
  "shell_call",
  "shell_call_output",
  "apply_patch_call",
  "apply_patch_call_output",
  "mcp_list_tools",
  "mcp_approval_request",
  "mcp_approval_response",
  "mcp_call",
  "custom_tool_call",
  "custom_tool_call_output",
  "tool_search_call",
  "tool_search_output",
  "program",
  "program_output",
]);

/** Content part types of Responses messages; stored messages use text, image_url, tool_use … */
const RESPONSES_PART_TYPES: ReadonlySet<string> = new Set(["input_text", "output_text", "input_image", "input_file"]);

/** Fields of stored messages that Responses items do not have: calls and their answers live in items of their own there. */
const STORED_ONLY_FIELDS = ["tool_calls", "tool_call_id", "function_call", "partType"] as const;

interface Evidence {
  readonly index: number;
  /** The field that shows it, e.g. "type" or "tool_calls". */
  readonly field: string;
  /** What it shows, e.g. 'type "function_call"'. */
  readonly what: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The Responses API's mark on a record: a type only it has, or a message with its content part types. */
function responsesEvidence(record: Record<string, unknown>, index: number): Evidence | undefined {
  const type = record.type;
  if (typeof type !== "string") return undefined;
  if (RESPONSES_ONLY_ITEM_TYPES.has(type)) return { index, field: "type", what: `type "${type}"` };
  if (type !== "message" || !Array.isArray(record.content)) return undefined;
  const part = record.content.find((entry: unknown) => isRecord(entry) && typeof entry.type === "string" && RESPONSES_PART_TYPES.has(entry.type)) as { type: string } | undefined;
  return part === undefined ? undefined : { index, field: "content", what: `a message with ${part.type} parts` };
}

/** The stored-message shape's mark: a tool message, or a field that only stored messages have. */
function storedEvidence(record: Record<string, unknown>, index: number): Evidence | undefined {
  if (record.role === "tool" || record.role === "function") return { index, field: "role", what: `role "${record.role}"` };
  const field = STORED_ONLY_FIELDS.find((name) => Object.hasOwn(record, name));
  return field === undefined ? undefined : { index, field, what: `a "${field}" field` };
}

const idOf = (record: unknown): { id?: string } => (isRecord(record) && typeof record.id === "string" && record.id.length > 0 ? { id: record.id } : {});

/**
 * The shape to read the records in. "auto": Responses items when a record carries the Responses API's
 * mark and none the stored-message shape's; stored messages otherwise. A shape given by name is
 * checked for the other shape's marks that its importer would misread (a stored message's tool_calls
 * would be kept aside, not sent, by the Responses importer). Both marks in one conversation: refused.
 */
export function detectInputShape(records: ReadonlyArray<unknown>, locations: ReadonlyArray<string>, source: string, requested: InputShape): "stored" | "openai-responses" {
  let responses: Evidence | undefined;
  let stored: Evidence | undefined;
  const wrong: CliInputProblem[] = [];
  const locationOf = (index: number) => locations[index] ?? `index ${index}`;
  records.forEach((record, index) => {
    if (!isRecord(record)) return;
    const forResponses = responsesEvidence(record, index);
    const forStored = storedEvidence(record, index);
    responses ??= forResponses;
    stored ??= forStored;
    if (requested === "openai-responses" && forStored !== undefined) {
      wrong.push({
        source,
        location: locationOf(index),
        ...idOf(record),
        field: forStored.field,
        message: `${forStored.what} is a stored message's, not a Responses API item's (--input-shape openai-responses): there a call is a function_call item and its answer a function_call_output item`,
      });
    }
    if (requested === "stored" && forResponses !== undefined && forResponses.field === "type") {
      wrong.push({
        source,
        location: locationOf(index),
        ...idOf(record),
        field: "type",
        message: `${forResponses.what} is a Responses API item, not a stored message (--input-shape stored): read the conversation with --input-shape openai-responses`,
      });
    }
  });
  if (wrong.length > 0) throw new CliInputError(wrong);
  if (requested !== "auto") return requested;
  if (responses !== undefined && stored !== undefined) {
    const [first, second] = responses.index < stored.index ? [responses, stored] : [stored, responses];
    const shapeOf = (evidence: Evidence) => (evidence === responses ? "a Responses API item" : "a stored message");
    throw new CliInputError([
      {
        source,
        location: locationOf(second.index),
        ...idOf(records[second.index]),
        field: second.field,
        message: `${shapeOf(second)} (${second.what}), but ${locationOf(first.index)} is ${shapeOf(first)} (${first.what}): a conversation is read in one shape, stored messages or Responses API items, not both`,
      },
    ]);
  }
  return responses === undefined ? "stored" : "openai-responses";
}
