// Imports MemoryChunk records of the team9 agent framework (the chunks the XML chunk transcript renders
// as tags) into canonical items, one item per chunk.
import type { Item, ItemInput } from "../model/item.js";
import type { ToolCallInput } from "../model/tool-call.js";
import { describeValue } from "./describe-value.js";
import { ExtraFields } from "./extra-fields.js";
import { isPlainObject } from "./is-plain-object.js";
import { metadataWithExtra } from "./metadata-with-extra.js";
import type { FieldPath, RecordFields } from "./record-fields.js";
import type { RecordReader } from "./record-reader.js";
import { runImport } from "./run-import.js";
import { toJsonText } from "./to-json-text.js";
import { withoutUndefined } from "./without-undefined.js";

const SOURCE = "memory chunk";
/** Where a chunk of the application's own type or sub-type is kept as stored: `metadata.extra.memoryChunk`. */
const MEMORY_CHUNK_KEY = "memoryChunk";
const CHUNK_TYPES = ["SYSTEM", "AGENT", "WORKFLOW", "DELEGATION", "ENVIRONMENT", "WORKING_FLOW", "OUTPUT"] as const;

// Spellings of each attribute, the XML chunk transcript's attribute names included.
const ROLE = ["role"];
const ACTION = ["action"];
const SUBTYPE = ["subType", "subtype", "sub_type"];
const SOURCE_ATTRIBUTE = ["source"];
const TOOL = ["tool", "toolName", "tool_name"];
const SKILL = ["skill", "skillName", "skill_name"];
const CALL_ID = ["callId", "call_id"];
const STATUS = ["status"];
const SUBAGENT_ID = ["subagentId", "subAgentId", "subagent_id"];
const AGENT_TYPE = ["agentType", "agent_type"];
const PARENT_AGENT_ID = ["parentAgentId", "parent_agent_id"];
const SUCCESS = ["success"];
const ERROR = ["error"];
const COMPACTED_AT = ["compactedAt", "compacted_at"];
const ORIGINAL_COUNT = ["originalCount", "original_count", "originalChunkCount"];
const REASON = ["reason"];
const TERMINATED_BY = ["terminatedBy", "terminated_by"];
const ARGUMENTS = ["arguments", "args"];
const DURATION = ["durationMs", "duration"];
const TODOS = ["todos"];

const DELEGATION_ACTIONS = {
  spawn_subagent: "subagent-spawn",
  message_subagent: "subagent-message",
  message_to_subagent: "subagent-message",
  subagent_result: "subagent-result",
  subagent_error: "subagent-result",
  parent_agent_message: "parent-message",
} as const;
const OUTPUT_ACTIONS = { task_completed: "task-completed", task_abandoned: "task-abandoned", task_terminated: "task-terminated" } as const;

/**
 * Converts memory chunks to items. Throws InvalidInputError naming the index, id and field of every
 * problem; fields it does not use are kept in `metadata.extra` (nested ones by field path).
 *
 * Attributes are looked up in the content object, then the chunk itself, then `metadata`, then
 * `metadata.custom`; the first place that has one wins and the others stay in `metadata.extra`.
 * Each accepts the spellings of the XML chunk transcript and team9 (callId/call_id,
 * subagentId/subAgentId/…).
 *
 * The item type follows from the chunk type and these discriminators (action values are the XML chunk
 * transcript's `action` attribute and team9's):
 * - SYSTEM: system.
 * - AGENT: action "clarification" → assistant with clarification: true; else role "user" → user,
 *   role "assistant" → assistant.
 * - WORKFLOW: action "tool_call" → assistant with one tool call (kind tool, name = tool, arguments =
 *   the arguments/args attribute, else the text); "skill_call" → the same with kind skill and
 *   name = skill. Without an action, a skill attribute means skill_call, a tool attribute tool_call.
 * - DELEGATION: action "spawn_subagent" | "message_subagent" ("message_to_subagent") |
 *   "subagent_result" ("subagent_error" = success false) | "parent_agent_message". Without an action:
 *   parentAgentId (or role "parent") → parent-message, agentType → subagent-spawn, success →
 *   subagent-result, subagentId alone → subagent-message.
 * - ENVIRONMENT: tool-result, needing a call id. Kind skill when source is "skill"/"skill_error",
 *   action is "skill_result", or there is a skill attribute and no tool one. isError when source ends
 *   in "_error", error is true or an error message (team9), or success is false.
 * - WORKING_FLOW: summary when subType is COMPACTED (or progress_summary, as subType or action) or
 *   compactedAt/originalCount is present; else todo-update when action starts with "todo_", subType
 *   is "todo" (team9 keeps it in metadata.custom) or todos is present; else subType THINKING →
 *   thinking, USER → user-intervention, RESPONSE → assistant.
 * - OUTPUT: action "task_completed" | "task_abandoned" | "task_terminated"; without an action,
 *   terminatedBy → task-terminated, reason → task-abandoned, otherwise task-completed (team9 calls
 *   OUTPUT "the agent's final output").
 * - A chunk type of the application's own, or a WORKING_FLOW subType none of the above: an item of
 *   its role attribute ("user", "system", else assistant) with its text, and the chunk as stored (not
 *   flattened) in `metadata.extra.memoryChunk`, for a custom chunk renderer to read its own fields.
 * An unknown action of a known chunk type, or a chunk none of these identify, is rejected at that field.
 *
 * A chunk's priority is its own `priority` field, else its `metadata.priority`.
 *
 * The text is `content` when it is a string, else `content.text`, else the JSON of the content fields
 * no attribute used (`type: "TEXT"` excepted), in their stored order; "" when none is left.
 */
export function importMemoryChunks(chunks: unknown): Item[] {
  return runImport(SOURCE, chunks, readChunk);
}

interface Found {
  readonly place: RecordFields;
  readonly key: string;
}

/** The places a chunk's attributes may live in, searched in order. */
class ChunkAttributes {
  readonly #places: ReadonlyArray<RecordFields>;

  constructor(places: ReadonlyArray<RecordFields>) {
    this.#places = places;
  }

  find(names: ReadonlyArray<string>): Found | undefined {
    for (const place of this.#places) {
      for (const key of names) if (place.has(key)) return { place, key };
    }
    return undefined;
  }

  has(names: ReadonlyArray<string>): boolean {
    return this.find(names) !== undefined;
  }

  peek(names: ReadonlyArray<string>): unknown {
    const found = this.find(names);
    return found?.place.peek(found.key);
  }

  take(names: ReadonlyArray<string>): void {
    const found = this.find(names);
    found?.place.take(found.key);
  }

  /** Where an issue about the attribute goes: where it was found, else its first place. */
  pathOf(names: ReadonlyArray<string>): FieldPath {
    const found = this.find(names);
    return found === undefined ? this.#places[0]!.at(names[0]!) : found.place.at(found.key);
  }

  string(names: ReadonlyArray<string>, reader: RecordReader, required?: string): string | undefined {
    const found = this.find(names);
    if (found === undefined) {
      if (required !== undefined) reader.issue(this.pathOf(names), `${required} (looked in content, the chunk, metadata and metadata.custom)`);
      return undefined;
    }
    return found.place.string(found.key, { nonEmpty: true });
  }

  /** An identifier; numbers are accepted and converted. */
  id(names: ReadonlyArray<string>, reader: RecordReader, required?: string): string | undefined {
    const found = this.find(names);
    if (found === undefined) {
      if (required !== undefined) reader.issue(this.pathOf(names), `${required} (looked in content, the chunk, metadata and metadata.custom)`);
      return undefined;
    }
    return found.place.id(found.key);
  }

  boolean(names: ReadonlyArray<string>): boolean | undefined {
    const found = this.find(names);
    return found?.place.boolean(found.key);
  }

  number(names: ReadonlyArray<string>, rule: { nonNegative?: boolean; integer?: boolean } = {}): number | undefined {
    const found = this.find(names);
    return found?.place.number(found.key, rule);
  }
}

function readChunk(record: Record<string, unknown>, reader: RecordReader): ItemInput[] {
  const extra = new ExtraFields();
  const chunk = reader.open(record, [], extra);
  const id = chunk.id("id", { required: "a memory chunk needs an id" }) ?? "";
  // A chunk type of the application's own is kept as it is stored, for a custom chunk renderer.
  const storedType = chunk.peek("type");
  const ownType = typeof storedType === "string" && storedType.length > 0 && !(CHUNK_TYPES as ReadonlyArray<string>).includes(storedType);
  const type = ownType ? undefined : chunk.oneOf("type", CHUNK_TYPES, { required: "a memory chunk needs its type" });
  const metadataView = chunk.object("metadata", extra);
  const customView = metadataView?.object("custom", extra);

  let content: RecordFields | string | undefined;
  const rawContent = chunk.peek("content");
  if (isPlainObject(rawContent)) content = chunk.object("content", extra);
  else if (typeof rawContent === "string") content = chunk.string("content");
  else if (rawContent === undefined || rawContent === null) chunk.take("content");
  else chunk.issue("content", `expected a string or an object, got ${describeValue(rawContent)}`);
  if (typeof content !== "string" && content?.peek("type") === "TEXT") content.take("type");

  const places = [...(typeof content === "object" ? [content] : []), chunk, ...(metadataView === undefined ? [] : [metadataView]), ...(customView === undefined ? [] : [customView])];
  const attributes = new ChunkAttributes(places);
  const dates = new ChunkAttributes([chunk, ...(metadataView === undefined ? [] : [metadataView])]);
  const createdAtFound = dates.find(["createdAt"]);
  const createdAt = createdAtFound?.place.date(createdAtFound.key);
  // The chunk's own priority, or its metadata's (where the chunk store keeps it): `<system_context priority>`.
  const priorityFound = new ChunkAttributes([chunk, ...(metadataView === undefined ? [] : [metadataView])]).find(["priority"]);
  const priority = priorityFound?.place.number(priorityFound.key);

  // The text uses what the attributes left, so it is read after them; common() last of all.
  const text = () => chunkText(reader, content);
  const common = () => ({ id, ...withoutUndefined({ createdAt }), metadata: metadataWithExtra({ priority }, extra) });
  const read = new ChunkReader(reader, attributes, record, () => ({ id, ...withoutUndefined({ createdAt, priority }) }));

  if (ownType) return read.custom(text);
  switch (type) {
    case undefined:
      return [];
    case "SYSTEM":
      return [{ type: "system", text: text(), ...common() }];
    case "AGENT":
      return read.agent(text, common);
    case "WORKFLOW":
      return read.workflow(text, common);
    case "DELEGATION":
      return read.delegation(text, common);
    case "ENVIRONMENT":
      return read.environment(text, common);
    case "WORKING_FLOW":
      return read.workingFlow(text, common);
    case "OUTPUT":
      return read.output(text, common);
  }
}

type Common = () => { id: string; createdAt?: string; metadata: ReturnType<typeof metadataWithExtra> };

/** One method per chunk type; each decides the variant, reads its attributes, then the text. */
class ChunkReader {
  readonly #reader: RecordReader;
  readonly #attributes: ChunkAttributes;
  readonly #record: Record<string, unknown>;
  readonly #known: () => { id: string; createdAt?: string; priority?: number };

  constructor(reader: RecordReader, attributes: ChunkAttributes, record: Record<string, unknown>, known: () => { id: string; createdAt?: string; priority?: number }) {
    this.#reader = reader;
    this.#attributes = attributes;
    this.#record = record;
    this.#known = known;
  }

  /**
   * A chunk of a type (or WORKING_FLOW sub-type) of the application's own: an item of its role
   * (user, system, else assistant) carrying its text, with the chunk as stored, nothing flattened, in
   * `metadata.extra.memoryChunk`, where a custom chunk renderer reads its own fields.
   */
  custom(text: () => string): ItemInput[] {
    const attributes = this.#attributes;
    const role = attributes.peek(ROLE);
    if (role === "user" || role === "system" || role === "assistant") attributes.take(ROLE);
    attributes.take(SUBTYPE);
    const body = text();
    const { id, createdAt, priority } = this.#known();
    const type = role === "user" ? "user" : role === "system" ? "system" : "assistant";
    const extra = new ExtraFields();
    extra.keep(MEMORY_CHUNK_KEY, this.#record);
    return [{ type, text: body, id, ...withoutUndefined({ createdAt }), metadata: metadataWithExtra({ priority }, extra) }];
  }

  /** The action attribute if it is one of `known`; an issue (and undefined) if it is something else. */
  #action<K extends string>(chunkType: string, known: ReadonlyArray<K>): K | undefined | null {
    const action = this.#attributes.peek(ACTION);
    if (action === undefined) return undefined;
    if (typeof action === "string" && (known as ReadonlyArray<string>).includes(action)) {
      this.#attributes.take(ACTION);
      return action as K;
    }
    const got = typeof action === "string" ? `"${action}"` : describeValue(action);
    this.#reader.issue(this.#attributes.pathOf(ACTION), `unknown ${chunkType} action ${got}; expected one of ${known.map((name) => `"${name}"`).join(", ")}`);
    return null;
  }

  agent(text: () => string, common: Common): ItemInput[] {
    const attributes = this.#attributes;
    if (attributes.peek(ACTION) === "clarification") {
      attributes.take(ACTION);
      if (attributes.peek(ROLE) === "assistant") attributes.take(ROLE);
      return [{ type: "assistant", text: text(), clarification: true, ...common() }];
    }
    const found = attributes.find(ROLE);
    if (found === undefined) {
      this.#reader.issue(attributes.pathOf(ROLE), 'an AGENT chunk needs role "user" or "assistant", or action "clarification"');
      return [];
    }
    const role = found.place.oneOf(found.key, ["user", "assistant"] as const);
    if (role === undefined) return [];
    return [{ type: role, text: text(), ...common() }];
  }

  workflow(text: () => string, common: Common): ItemInput[] {
    const attributes = this.#attributes;
    const action = this.#action("WORKFLOW", ["tool_call", "skill_call"] as const);
    if (action === null) return [];
    let kind: "tool" | "skill";
    if (action !== undefined) kind = action === "skill_call" ? "skill" : "tool";
    else if (attributes.has(SKILL)) kind = "skill";
    else if (attributes.has(TOOL)) kind = "tool";
    else {
      this.#reader.issue(attributes.pathOf(ACTION), 'a WORKFLOW chunk needs action "tool_call" or "skill_call" (or a tool or skill attribute)');
      return [];
    }
    const name = kind === "skill" && attributes.has(SKILL) ? attributes.string(SKILL, this.#reader) : attributes.string(TOOL, this.#reader, `a ${kind} call needs the ${kind} name`);
    const callId = attributes.id(CALL_ID, this.#reader, `a ${kind} call needs its call id (callId or call_id)`);
    const status = attributes.string(STATUS, this.#reader);
    const argumentsFound = attributes.find(ARGUMENTS);
    const explicitArguments = argumentsFound?.place.json(argumentsFound.key, "{}");
    // The XML chunk transcript renders a call's arguments as the tag's text; an explicit arguments
    // attribute wins, and then the text (if any) is what the assistant said alongside the call.
    const body = text();
    if (name === undefined || callId === undefined) return [];
    const call: ToolCallInput = { id: callId, name, arguments: explicitArguments ?? (body.length > 0 ? body : "{}"), kind, ...withoutUndefined({ status }) };
    return [{ type: "assistant", text: explicitArguments === undefined ? "" : body, toolCalls: [call], ...common() }];
  }

  delegation(text: () => string, common: Common): ItemInput[] {
    const attributes = this.#attributes;
    const action = this.#action("DELEGATION", Object.keys(DELEGATION_ACTIONS) as Array<keyof typeof DELEGATION_ACTIONS>);
    if (action === null) return [];
    let variant: (typeof DELEGATION_ACTIONS)[keyof typeof DELEGATION_ACTIONS];
    if (action !== undefined) variant = DELEGATION_ACTIONS[action];
    else if (attributes.has(PARENT_AGENT_ID) || attributes.peek(ROLE) === "parent") variant = "parent-message";
    else if (attributes.has(AGENT_TYPE)) variant = "subagent-spawn";
    else if (attributes.has(SUCCESS)) variant = "subagent-result";
    else if (attributes.has(SUBAGENT_ID)) variant = "subagent-message";
    else {
      this.#reader.issue(attributes.pathOf(ACTION), "a DELEGATION chunk needs an action (spawn_subagent, message_subagent, subagent_result, parent_agent_message) or a parentAgentId, agentType, success or subagentId attribute");
      return [];
    }
    if (variant === "parent-message") {
      if (attributes.peek(ROLE) === "parent") attributes.take(ROLE);
      const parentAgentId = attributes.id(PARENT_AGENT_ID, this.#reader, "a parent agent message needs parentAgentId");
      const body = text();
      return parentAgentId === undefined ? [] : [{ type: "parent-message", parentAgentId, text: body, ...common() }];
    }
    const subagentId = attributes.id(SUBAGENT_ID, this.#reader, "a subagent chunk needs subagentId");
    if (variant === "subagent-spawn") {
      const agentType = attributes.string(AGENT_TYPE, this.#reader);
      const body = text();
      return subagentId === undefined ? [] : [{ type: "subagent-spawn", subagentId, ...withoutUndefined({ agentType }), text: body, ...common() }];
    }
    if (variant === "subagent-result") {
      const success = attributes.boolean(SUCCESS) ?? action !== "subagent_error";
      const body = text();
      return subagentId === undefined ? [] : [{ type: "subagent-result", subagentId, success, text: body, ...common() }];
    }
    const body = text();
    return subagentId === undefined ? [] : [{ type: "subagent-message", subagentId, text: body, ...common() }];
  }

  environment(text: () => string, common: Common): ItemInput[] {
    const attributes = this.#attributes;
    const source = attributes.peek(SOURCE_ATTRIBUTE);
    const knownSource = source === "tool" || source === "tool_error" || source === "skill" || source === "skill_error";
    if (knownSource) attributes.take(SOURCE_ATTRIBUTE);
    const action = attributes.peek(ACTION);
    if (action === "tool_result" || action === "skill_result") attributes.take(ACTION);
    const skill = source === "skill" || source === "skill_error" || action === "skill_result" || (!knownSource && action !== "tool_result" && attributes.has(SKILL) && !attributes.has(TOOL));
    const callId = attributes.id(CALL_ID, this.#reader, "an ENVIRONMENT chunk is read as a tool or skill result and needs its call id (callId or call_id)");
    const toolName = skill && attributes.has(SKILL) ? attributes.string(SKILL, this.#reader) : attributes.string(TOOL, this.#reader);
    const success = attributes.boolean(SUCCESS);
    const durationMs = attributes.number(DURATION, { nonNegative: true });
    // team9 stores a tool error's message in `error`: it marks the error and stays in the text.
    let failed = typeof source === "string" && source.endsWith("_error");
    const error = attributes.find(ERROR);
    if (error !== undefined) {
      const value = error.place.peek(error.key);
      if (typeof value === "boolean") failed = error.place.boolean(error.key) === true || failed;
      else if (typeof value === "string") failed = failed || value.length > 0;
      else error.place.issue(error.key, `expected true, false or an error message, got ${describeValue(value)}`);
    }
    const output = text();
    if (callId === undefined) return [];
    const optional = withoutUndefined({ toolName, durationMs });
    return [{ type: "tool-result", callId, output, isError: failed || success === false, kind: skill ? "skill" : "tool", ...optional, ...common() }];
  }

  workingFlow(text: () => string, common: Common): ItemInput[] {
    const attributes = this.#attributes;
    const subtypeValue = attributes.peek(SUBTYPE);
    const subtype = typeof subtypeValue === "string" ? subtypeValue.toUpperCase() : undefined;
    const action = attributes.peek(ACTION);

    const isSummary = subtype === "COMPACTED" || subtype === "PROGRESS_SUMMARY" || action === "progress_summary" || attributes.has(COMPACTED_AT) || attributes.has(ORIGINAL_COUNT);
    if (isSummary) {
      if (subtype === "COMPACTED" || subtype === "PROGRESS_SUMMARY") attributes.take(SUBTYPE);
      if (action === "progress_summary") attributes.take(ACTION);
      const compactedAt = this.#epochMilliseconds(COMPACTED_AT);
      const originalCount = attributes.number(ORIGINAL_COUNT, { nonNegative: true, integer: true });
      const body = text();
      return [{ type: "summary", text: body, ...withoutUndefined({ compactedAt, originalCount }), ...common() }];
    }

    const todoAction = typeof action === "string" && action.startsWith("todo_") ? action : undefined;
    if (todoAction !== undefined || subtype === "TODO" || attributes.has(TODOS)) {
      if (todoAction !== undefined) attributes.take(ACTION);
      if (subtype === "TODO") attributes.take(SUBTYPE);
      const body = text();
      return [{ type: "todo-update", action: todoAction ?? "todo_set", text: body, ...common() }];
    }

    const byKind = { THINKING: "thinking", USER: "user-intervention", RESPONSE: "assistant" } as const;
    if (subtype === "THINKING" || subtype === "USER" || subtype === "RESPONSE") {
      attributes.take(SUBTYPE);
      return [{ type: byKind[subtype], text: text(), ...common() }];
    }
    // A sub-type of the application's own (a plan, a reflection…): kept as stored, for a custom chunk renderer.
    if (typeof subtypeValue === "string" && subtypeValue.length > 0) return this.custom(text);
    const got = subtypeValue === undefined ? "none" : typeof subtypeValue === "string" ? `"${subtypeValue}"` : describeValue(subtypeValue);
    this.#reader.issue(
      attributes.pathOf(subtypeValue === undefined && action !== undefined ? ACTION : SUBTYPE),
      `cannot tell what this WORKING_FLOW chunk is (subType ${got}): expected subType COMPACTED, THINKING, USER or RESPONSE, a "todo_…" action, or compactedAt/originalCount`,
    );
    return [];
  }

  output(text: () => string, common: Common): ItemInput[] {
    const attributes = this.#attributes;
    const action = this.#action("OUTPUT", Object.keys(OUTPUT_ACTIONS) as Array<keyof typeof OUTPUT_ACTIONS>);
    if (action === null) return [];
    // "The agent's final output" (team9): without an action it is a completed task.
    const variant = action !== undefined ? OUTPUT_ACTIONS[action] : attributes.has(TERMINATED_BY) ? "task-terminated" : attributes.has(REASON) ? "task-abandoned" : "task-completed";
    if (variant === "task-abandoned") {
      const reason = attributes.string(REASON, this.#reader);
      const body = text();
      return [{ type: variant, ...withoutUndefined({ reason }), text: body, ...common() }];
    }
    if (variant === "task-terminated") {
      const terminatedBy = attributes.string(TERMINATED_BY, this.#reader);
      const body = text();
      return [{ type: variant, ...withoutUndefined({ terminatedBy }), text: body, ...common() }];
    }
    return [{ type: variant, text: text(), ...common() }];
  }

  /** A memory chunk's compacted_at: epoch milliseconds, as a number, a numeric string or a date string. */
  #epochMilliseconds(names: ReadonlyArray<string>): number | undefined {
    const found = this.#attributes.find(names);
    if (found === undefined) return undefined;
    const value = found.place.take(found.key);
    if (typeof value === "number" && Number.isFinite(value)) return value;
    if (typeof value === "string") {
      const time = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
      if (!Number.isNaN(time)) return time;
    }
    found.place.issue(found.key, `expected epoch milliseconds or a date string, got ${describeValue(value)}`);
    return undefined;
  }
}

/** The chunk's text: a string content, else content.text, else the JSON of the unused content fields. */
function chunkText(reader: RecordReader, content: RecordFields | string | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  if (content.has("text")) return content.string("text") ?? "";
  content.take("text");
  const rest = content.takeRest();
  if (Object.keys(rest).length === 0) return "";
  const json = toJsonText(rest);
  if (json === undefined) reader.issue(content.path, "cannot be serialised as JSON (a cycle or a BigInt?)");
  return json ?? "";
}
