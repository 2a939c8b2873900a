// How the Anthropic rules read a request: it may be anything a user built by hand, so every field is
// looked at as an unknown value, and every message and block knows its path for the violations it
// causes. Consecutive same-role messages are grouped into turns, because the API merges them.

export type JsonRecord = { readonly [key: string]: unknown };

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const EMPTY: JsonRecord = Object.freeze({});

/** A content block. Its path is built only when a violation asks for it: most blocks never need one. */
export class BlockView {
  readonly messageIndex: number;
  /** Position in the content array; undefined for string content. */
  readonly position: number | undefined;
  /** The block's fields; string content reads as one text block, anything not an object as {}. */
  readonly fields: JsonRecord;
  /** The block's type when it is a string. */
  readonly type: string | undefined;

  constructor(messageIndex: number, position: number | undefined, fields: JsonRecord) {
    this.messageIndex = messageIndex;
    this.position = position;
    this.fields = fields;
    this.type = typeof fields.type === "string" ? fields.type : undefined;
  }

  /** "messages[3].content[0]", or "messages[3].content" for string content. */
  get path(): string {
    return this.position === undefined ? `messages[${this.messageIndex}].content` : `messages[${this.messageIndex}].content[${this.position}]`;
  }
}

export interface MessageView {
  readonly index: number;
  /** The message's fields; empty when the message is not an object. */
  readonly fields: JsonRecord;
  readonly isObject: boolean;
  /** The role when it is a string. */
  readonly role: string | undefined;
  readonly blocks: ReadonlyArray<BlockView>;
}

/** Consecutive messages of one role, which the API combines into a single turn. */
export interface TurnView {
  readonly role: string | undefined;
  readonly messages: ReadonlyArray<MessageView>;
  readonly blocks: ReadonlyArray<BlockView>;
}

function blocksOf(content: unknown, index: number): BlockView[] {
  if (typeof content === "string") return [new BlockView(index, undefined, { type: "text", text: content })];
  if (!Array.isArray(content)) return [];
  const blocks: BlockView[] = [];
  for (let position = 0; position < content.length; position++) {
    const block: unknown = content[position];
    blocks.push(new BlockView(index, position, isRecord(block) ? block : EMPTY));
  }
  return blocks;
}

function viewOf(message: unknown, index: number): MessageView {
  const fields = isRecord(message) ? message : EMPTY;
  return { index, fields, isObject: isRecord(message), role: typeof fields.role === "string" ? fields.role : undefined, blocks: blocksOf(fields.content, index) };
}

/** The messages of a request, or undefined when `messages` is not an array. */
export function messageViewsOf(request: unknown): MessageView[] | undefined {
  if (!isRecord(request) || !Array.isArray(request.messages)) return undefined;
  const messages: unknown[] = request.messages;
  const views: MessageView[] = [];
  for (let index = 0; index < messages.length; index++) views.push(viewOf(messages[index], index));
  return views;
}

/** One message of a request (negative indexes count from the end), for rules about the first or last. */
export function messageViewAt(request: unknown, index: number): MessageView | undefined {
  if (!isRecord(request) || !Array.isArray(request.messages)) return undefined;
  const messages: unknown[] = request.messages;
  const position = index < 0 ? messages.length + index : index;
  return position >= 0 && position < messages.length ? viewOf(messages[position], position) : undefined;
}

/** The turns of a request: same-role neighbours merged, as the API does before checking tool pairing. */
export function turnViewsOf(request: unknown): TurnView[] {
  const turns: { role: string | undefined; messages: MessageView[]; blocks: BlockView[] }[] = [];
  let last: (typeof turns)[number] | undefined;
  for (const message of messageViewsOf(request) ?? []) {
    if (last !== undefined && message.role !== undefined && last.role === message.role) {
      last.messages.push(message);
      for (const block of message.blocks) last.blocks.push(block);
    } else {
      last = { role: message.role, messages: [message], blocks: message.blocks.slice() };
      turns.push(last);
    }
  }
  return turns;
}

/** Where a violation is: a path inside a message, and the message's index. */
export function at(message: MessageView, suffix = ""): { path: string; messageIndex: number } {
  return { path: `messages[${message.index}]${suffix}`, messageIndex: message.index };
}

export function atBlock(block: BlockView, suffix = ""): { path: string; messageIndex: number } {
  return { path: `${block.path}${suffix}`, messageIndex: block.messageIndex };
}

/** The message index a path points into, for violations found by walking the whole request. */
export function wherePath(path: string): { path: string; messageIndex?: number } {
  const match = /^messages\[(\d+)\]/.exec(path);
  return match === null ? { path } : { path, messageIndex: Number(match[1]) };
}

export interface TextBlockView {
  readonly fields: JsonRecord;
  path(): string;
}

/** Every text block of the request: in system, in message content and inside tool_result content. */
export function textBlocksOf(request: unknown): TextBlockView[] {
  const found: TextBlockView[] = [];
  const collect = (blocks: unknown, parentPath: () => string) => {
    if (!Array.isArray(blocks)) return;
    for (let position = 0; position < blocks.length; position++) {
      const block: unknown = blocks[position];
      if (isRecord(block) && block.type === "text") found.push({ fields: block, path: () => `${parentPath()}[${position}]` });
    }
  };
  if (isRecord(request)) collect(request.system, () => "system");
  for (const message of messageViewsOf(request) ?? []) {
    collect(message.fields.content, () => `messages[${message.index}].content`);
    for (const block of message.blocks) if (block.type === "tool_result") collect(block.fields.content, () => `${block.path}.content`);
  }
  return found;
}

export const THINKING_TYPES: ReadonlySet<string | undefined> = new Set(["thinking", "redacted_thinking"]);

/** A value named in a violation message; never throws, whatever the value (a cycle, a bigint). */
export function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (value === undefined) return "missing";
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : `a ${typeof value}`;
}
