// The retrieve_context tool: a build that cut or cleared a text keeps it whole under a handle (its
// marker says which); the model asks for a handle and a range and gets exactly that part of the
// original, at most maxChars characters per call, with a line saying what it got and how to go on.
import { PluginOptionsError } from "@ctxpipe/core";
import type { ConversationStore, OffloadedRecord } from "@ctxpipe/store";
import type { LoopTool } from "./loop-tool.js";

export const RETRIEVE_CONTEXT_TOOL = "retrieve_context";
/** Characters one call returns at most (about 5,000 tokens of English or code). */
export const DEFAULT_RETRIEVE_MAX_CHARS = 20_000;
/** The tool policy category of retrieve_context: deny it (or the tool's name) to keep it out. */
export const RETRIEVE_CONTEXT_CATEGORY = "context";

export interface RetrieveContextToolOptions {
  /** The longest range one call returns, in UTF-16 code units. Default 20,000. */
  readonly maxChars?: number;
}

/**
 * retrieve_context over a store's offloaded text for one conversation. The loops offer it by themselves
 * when a conversation has offloaded text; this is for loops of your own.
 */
export function retrieveContextTool(store: Pick<ConversationStore, "loadOffloaded">, conversationId: string, options: RetrieveContextToolOptions = {}): LoopTool {
  const owner = "retrieveContextTool";
  if (typeof store?.loadOffloaded !== "function") {
    throw new PluginOptionsError(owner, "store: has no loadOffloaded(conversationId, handle); JsonlStore and PostgresStore keep offloaded text, a store of your own must implement appendOffloaded, loadOffloaded and listOffloaded");
  }
  if (typeof conversationId !== "string" || conversationId.trim() === "") throw new PluginOptionsError(owner, "conversationId: must be a non-empty string");
  return offloadedTextTool((handle) => store.loadOffloaded!(conversationId, handle), maxCharsOption(owner, options.maxChars));
}

function maxCharsOption(owner: string, value: number | undefined): number {
  if (value === undefined) return DEFAULT_RETRIEVE_MAX_CHARS;
  if (!Number.isInteger(value) || value < 1) throw new PluginOptionsError(owner, `maxChars: must be a positive integer, got ${String(value)}`);
  return value;
}

/**
 * retrieve_context reading through `load` (a store, or the loop's memory for a call without one).
 * `maxChars` may be a function, asked at each call (the loops size it to the build's budget); the
 * definition does not name it, so the request's tools stay the same whatever it is.
 */
export function offloadedTextTool(load: (handle: string) => Promise<OffloadedRecord | undefined>, maxChars: number | (() => number) = DEFAULT_RETRIEVE_MAX_CHARS): LoopTool {
  return {
    name: RETRIEVE_CONTEXT_TOOL,
    category: RETRIEVE_CONTEXT_CATEGORY,
    description:
      "Reads back text that was cut or cleared from this conversation to fit the context window. A marker or placeholder in the conversation names its handle (ctx_…) and the range that was cut: pass them as given. " +
      "Offsets count UTF-16 characters from 0; `to` is exclusive. One call returns a part of limited length; the reply says which range it holds and how to ask for the next part.",
    parameters: {
      type: "object",
      properties: {
        handle: { type: "string", description: "The handle a marker or placeholder names, e.g. ctx_0123456789abcdef." },
        from: { type: "integer", minimum: 0, description: "Offset of the first character to read. Default 0." },
        to: { type: "integer", minimum: 0, description: "Offset just after the last character to read. Default: as far as one call returns, or the end." },
      },
      required: ["handle"],
      additionalProperties: false,
    },
    run: async (args) => {
      const { handle, from, to } = args;
      if (typeof handle !== "string" || handle === "") throw new Error('"handle" must be the handle a marker names (a string such as "ctx_0123456789abcdef")');
      for (const [name, value] of [["from", from], ["to", to]] as const) {
        if (value !== undefined && (typeof value !== "number" || !Number.isInteger(value) || value < 0)) throw new Error(`"${name}" must be a whole number of at least 0, got ${JSON.stringify(value)}`);
      }
      const record = await load(handle);
      if (record === undefined) throw new Error(`no text is kept under the handle ${JSON.stringify(handle)} in this conversation; use a handle exactly as a marker or placeholder names it`);
      return readRange(record.text, handle, from as number | undefined, to as number | undefined, typeof maxChars === "function" ? maxChars() : maxChars);
    },
  };
}

/** The reply: one line saying what was returned and how to go on, then the text itself. */
export function readRange(text: string, handle: string, from: number | undefined, to: number | undefined, maxChars: number): string {
  const length = text.length;
  const start = from ?? 0;
  if (start > length) throw new Error(`"from" (${start}) is past the end of ${handle}, which holds ${groupDigits(length)} characters`);
  if (to !== undefined && to < start) throw new Error(`"to" (${to}) is before "from" (${start})`);
  const wanted = Math.min(to ?? length, length);
  let end = Math.min(wanted, start + maxChars);
  // Never end between the two halves of a surrogate pair (an emoji), unless that is all there is.
  if (end < wanted && end > start + 1 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  const part = text.slice(start, end);
  const head = `[${RETRIEVE_CONTEXT_TOOL} ${handle}: characters ${groupDigits(start)} to ${groupDigits(end)} of ${groupDigits(length)} (${groupDigits(end - start)} ${end - start === 1 ? "character" : "characters"}).`;
  let next: string;
  if (to !== undefined && end < wanted) {
    const request = JSON.stringify({ handle, from: end, to: wanted });
    next = ` ${groupDigits(wanted - end)} more characters of the range asked for remain (at most ${groupDigits(maxChars)} per call): call ${RETRIEVE_CONTEXT_TOOL} with ${request} for the next part.]`;
  } else if (end < length) {
    next = ` The text goes on for ${groupDigits(length - end)} more characters: call ${RETRIEVE_CONTEXT_TOOL} with ${JSON.stringify({ handle, from: end })} to read on.]`;
  } else {
    next = " This is the end of the text.]";
  }
  return `${head}${next}\n${part}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

// 1234567 → "1,234,567" whatever the locale, so the same call always gives the same bytes.
function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
