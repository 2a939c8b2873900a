// Imports LangChain messages (BaseMessage and its chunks, or the same shapes as plain objects) into
// canonical items, one item per message. What an item does not model is kept under
// `metadata.extra.langchain`, so the "langchain" renderer gives the stored message back.
import { type InputIssue, InvalidInputError, type ItemInput, type ToolCallInput } from "@ctxpipe/core";
import type { LangChainExtra } from "./langchain-extra.js";
import { langChainMessageType } from "./langchain-message-type.js";
import { type ContentProblem, describeValue, readLangChainContent } from "./read-langchain-content.js";

const SOURCE = "LangChain message";
const DEFAULT_ID_PREFIX = "lc-";

export interface ImportLangChainMessagesOptions {
  /** Prefix of the ids given to messages without an `id`: `${idPrefix}${index}`. Default "lc-". */
  readonly idPrefix?: string;
}

interface Remembered {
  readonly idPrefix: string;
  /** The position the item was read at; only matters when its id came from the position. */
  readonly index: number;
  readonly item: ItemInput;
}

// One item per message object. An agent hands its whole state back on every model call, and the
// pipeline remembers token counts and rendered messages per item object: giving it the same objects
// again is what makes a rebuild cost only the new messages. Hence the contract: a message passed in
// is treated as immutable (LangChain's own reducers replace messages, they do not edit them).
const remembered = new WeakMap<object, Remembered>();

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nonEmptyRecord(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) && Object.keys(value).length > 0 ? value : undefined;
}

/** Fields that are the same for every item type, in a fixed key order (deterministic output). */
function extraOf(message: Record<string, unknown>, fields: LangChainExtra): LangChainExtra | undefined {
  const name = typeof message.name === "string" && message.name.length > 0 ? message.name : undefined;
  const extra: LangChainExtra = {
    ...fields,
    ...(Array.isArray(message.content) ? { content: message.content } : {}),
    ...(name === undefined ? {} : { name }),
    ...(nonEmptyRecord(message.additional_kwargs) === undefined ? {} : { additional_kwargs: message.additional_kwargs as Record<string, unknown> }),
    ...(nonEmptyRecord(message.response_metadata) === undefined ? {} : { response_metadata: message.response_metadata as Record<string, unknown> }),
  };
  return Object.keys(extra).length === 0 ? undefined : extra;
}

function withExtra<T extends ItemInput>(item: T, extra: LangChainExtra | undefined): T {
  return extra === undefined ? item : { ...item, metadata: { extra: { langchain: extra } } };
}

/**
 * Converts LangChain messages to items. Throws InvalidInputError naming the index, id and field of
 * every problem. Never changes the messages.
 *
 * - human → user: text blocks joined with "\n", image and file blocks → attachments.
 * - ai (and AIMessageChunk) → assistant: `tool_calls` → calls (args as JSON text); reasoning and
 *   thinking blocks → reasoning. `invalid_tool_calls` (arguments the model produced that do not parse)
 *   become no call: they are kept in metadata and never sent, since a provider rejects a call whose
 *   arguments are not JSON and has no result to pair it with.
 * - tool → tool-result: `tool_call_id`, `status: "error"` → isError, the tool name from `name` or the call.
 * - system, developer → system. A ChatMessage ("generic") by its role: user/human, assistant/ai, system.
 * - `usage_metadata`, `response_metadata`, `additional_kwargs`, `artifact`, `name` and non-text blocks
 *   are kept under `metadata.extra.langchain`.
 *
 * Ids: `message.id` when set, else `${idPrefix}${index}` (stable while the list only grows).
 */
export function importLangChainMessages(messages: ReadonlyArray<unknown>, options: ImportLangChainMessagesOptions = {}): ItemInput[] {
  if (!Array.isArray(messages)) {
    throw new InvalidInputError(SOURCE, [{ index: 0, id: undefined, path: [], message: `expected an array of LangChain messages, got ${describeValue(messages)}` }]);
  }
  const idPrefix = options.idPrefix ?? DEFAULT_ID_PREFIX;
  if (typeof idPrefix !== "string") throw new InvalidInputError(SOURCE, [{ index: 0, id: undefined, path: ["idPrefix"], message: `the option idPrefix must be a string, got ${describeValue(idPrefix)}` }]);
  const items: ItemInput[] = [];
  const issues: InputIssue[] = [];
  // Tool messages may leave out the tool name: it is found through the call they answer.
  const toolNames = new Map<string, string>();
  // The same message object twice in one list (a double write) is the same item twice: one id, so the
  // pipeline sends it once and reports the copy, even when the id came from the position.
  const seen = new Map<object, ItemInput>();
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    const again = isRecord(message) ? seen.get(message) : undefined;
    if (again !== undefined) {
      items.push(again);
      continue;
    }
    const known = isRecord(message) ? remembered.get(message) : undefined;
    if (known !== undefined && known.idPrefix === idPrefix && (known.index === index || langChainExtraIdFromPosition(known.item) !== true)) {
      rememberCalls(known.item, toolNames);
      seen.set(message as object, known.item);
      items.push(known.item);
      continue;
    }
    const read = readMessage(message, index, idPrefix, toolNames);
    if ("issues" in read) {
      issues.push(...read.issues);
      continue;
    }
    if (isRecord(message)) {
      remembered.set(message, { idPrefix, index, item: read.item });
      seen.set(message, read.item);
    }
    rememberCalls(read.item, toolNames);
    items.push(read.item);
  }
  if (issues.length > 0) throw new InvalidInputError(SOURCE, issues);
  return items;
}

function langChainExtraIdFromPosition(item: ItemInput): boolean {
  const extra = item.metadata?.extra?.langchain as LangChainExtra | undefined;
  return extra?.idFromPosition === true;
}

function rememberCalls(item: ItemInput, toolNames: Map<string, string>): void {
  if (item.type !== "assistant") return;
  for (const call of item.toolCalls ?? []) if (call.id !== "") toolNames.set(call.id, call.name);
}

function readMessage(message: unknown, index: number, idPrefix: string, toolNames: ReadonlyMap<string, string>): { item: ItemInput } | { issues: InputIssue[] } {
  if (!isRecord(message)) return { issues: [{ index, id: undefined, path: [], message: `expected a LangChain message (a BaseMessage or { type, content }), got ${describeValue(message)}` }] };
  const ownId = typeof message.id === "string" && message.id.length > 0 ? message.id : undefined;
  const issues: InputIssue[] = [];
  const issue = (problem: ContentProblem) => issues.push({ index, id: ownId, path: problem.path, message: problem.message });
  const id = ownId ?? `${idPrefix}${index}`;
  const positional: LangChainExtra = ownId === undefined ? { idFromPosition: true } : {};
  const kind = langChainMessageType(message);
  if ("unknown" in kind) {
    const hint =
      message.lc === 1 && message.type === "constructor"
        ? "this is a serialized message: revive it with load() from @langchain/core/load first"
        : `expected one of human, ai, system, tool (from _getType() or the field "type"), got ${describeValue(kind.unknown)}`;
    issue({ path: ["type"], message: hint });
    return { issues };
  }
  if (message.id !== undefined && message.id !== null && typeof message.id !== "string") issue({ path: ["id"], message: `expected the message id to be a string, got ${describeValue(message.id)}` });
  let type: string = kind.known;
  const role = typeof message.role === "string" ? message.role : undefined;
  if (type === "generic") {
    const mapped = role === "user" || role === "human" ? "human" : role === "assistant" || role === "ai" ? "ai" : role === "system" || role === "developer" ? "system" : undefined;
    if (mapped === undefined) {
      issue({ path: ["role"], message: `a ChatMessage needs the role user, assistant or system to be sent to a chat model, got ${describeValue(message.role)}` });
      return { issues };
    }
    type = mapped;
  }
  const typeKept: LangChainExtra = kind.known === "generic" ? { type: "generic", ...(role === undefined ? {} : { role }) } : kind.known === "developer" ? { type: "developer" } : {};

  switch (type) {
    case "remove":
      issue({ path: ["type"], message: "a RemoveMessage is an instruction to the state's reducer, not a message: pass the messages the state holds after the update" });
      return { issues };
    case "function":
      issue({ path: ["type"], message: "a FunctionMessage answers the legacy function_call API, which ctxpipe does not read: store tool calls and ToolMessages instead" });
      return { issues };
    case "human": {
      const content = readLangChainContent(message.content, { attachments: true, reasoning: false }, issue);
      if (issues.length > 0) return { issues };
      const attachments = content.attachments.length > 0 ? { attachments: content.attachments } : {};
      return { item: withExtra({ id, type: "user", text: content.text, ...attachments }, extraOf(message, { ...positional, ...typeKept })) };
    }
    case "system":
    case "developer": {
      const content = readLangChainContent(message.content, { attachments: false, reasoning: false }, issue);
      if (issues.length > 0) return { issues };
      return { item: withExtra({ id, type: "system", text: content.text }, extraOf(message, { ...positional, ...typeKept })) };
    }
    case "ai": {
      const content = readLangChainContent(message.content, { attachments: false, reasoning: true }, issue);
      const toolCalls = readToolCalls(message.tool_calls, issue);
      if (issues.length > 0) return { issues };
      const invalid = Array.isArray(message.invalid_tool_calls) && message.invalid_tool_calls.length > 0 ? { invalid_tool_calls: message.invalid_tool_calls } : {};
      const usage = nonEmptyRecord(message.usage_metadata) === undefined ? {} : { usage_metadata: message.usage_metadata as Record<string, unknown> };
      const reasoning = content.reasoning.length > 0 ? { reasoning: content.reasoning } : {};
      return { item: withExtra({ id, type: "assistant", text: content.text, toolCalls, ...reasoning }, extraOf(message, { ...positional, ...typeKept, ...invalid, ...usage })) };
    }
    case "tool": {
      const callId = message.tool_call_id;
      if (typeof callId !== "string") issue({ path: ["tool_call_id"], message: `a ToolMessage needs the tool_call_id of the call it answers (a string), got ${describeValue(callId)}` });
      const status = message.status;
      if (status !== undefined && status !== "success" && status !== "error") issue({ path: ["status"], message: `expected "success" or "error", got ${describeValue(status)}` });
      const content = readLangChainContent(message.content, { attachments: false, reasoning: false }, issue);
      if (issues.length > 0 || typeof callId !== "string") return { issues };
      const name = typeof message.name === "string" && message.name.length > 0 ? message.name : toolNames.get(callId);
      const artifact = message.artifact === undefined ? {} : { artifact: message.artifact };
      const metadata = nonEmptyRecord(message.metadata) === undefined ? {} : { metadata: message.metadata as Record<string, unknown> };
      return {
        item: withExtra(
          { id, type: "tool-result", callId, ...(name === undefined ? {} : { toolName: name }), output: content.text, isError: status === "error" },
          extraOf(message, { ...positional, ...(status === "success" ? { status } : {}), ...artifact, ...metadata }),
        ),
      };
    }
    default:
      issue({ path: ["type"], message: `expected one of human, ai, system, tool, got ${describeValue(type)}` });
      return { issues };
  }
}

function readToolCalls(value: unknown, issue: (problem: ContentProblem) => void): ToolCallInput[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    issue({ path: ["tool_calls"], message: `expected an array of tool calls, got ${describeValue(value)}` });
    return [];
  }
  const calls: ToolCallInput[] = [];
  value.forEach((call: unknown, position) => {
    const path = ["tool_calls", position];
    if (!isRecord(call)) {
      issue({ path, message: `expected a tool call object { id, name, args }, got ${describeValue(call)}` });
      return;
    }
    if (typeof call.name !== "string" || call.name.length === 0) {
      issue({ path: [...path, "name"], message: `a tool call needs the tool name (a non-empty string), got ${describeValue(call.name)}` });
      return;
    }
    // LangChain lets a call go without an id; "" is what repair-orphans pairs by position.
    if (call.id !== undefined && call.id !== null && typeof call.id !== "string") {
      issue({ path: [...path, "id"], message: `expected the call id to be a string, got ${describeValue(call.id)}` });
      return;
    }
    let args: string;
    if (call.args === undefined || call.args === null) args = "{}";
    else if (typeof call.args === "string") args = call.args;
    else if (isRecord(call.args)) {
      const text = jsonOf(call.args);
      if (text === undefined) {
        issue({ path: [...path, "args"], message: "the call's args cannot be written as JSON (a cycle, or a BigInt)" });
        return;
      }
      args = text;
    } else {
      issue({ path: [...path, "args"], message: `expected the call's args to be an object, got ${describeValue(call.args)}` });
      return;
    }
    calls.push({ id: typeof call.id === "string" ? call.id : "", name: call.name, arguments: args });
  });
  return calls;
}

function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
