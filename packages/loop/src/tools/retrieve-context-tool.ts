// The retrieve_context tool: a build that cut or cleared a text keeps it whole under a handle (its
// marker says which); the model asks for a handle and a range and gets exactly that part of the
// original, at most maxChars characters per call, with a line saying what it got and how to go on.
import {
  DEFAULT_RETRIEVE_MAX_CHARS,
  PluginOptionsError,
  RETRIEVE_CONTEXT_DESCRIPTION,
  RETRIEVE_CONTEXT_PARAMETERS,
  RETRIEVE_CONTEXT_TOOL_NAME,
  readOffloadedRange,
  retrieveContextArguments,
} from "@ctxpipe/core";
import type { ConversationStore, OffloadedRecord } from "@ctxpipe/store";
import type { LoopTool } from "./loop-tool.js";

export const RETRIEVE_CONTEXT_TOOL = RETRIEVE_CONTEXT_TOOL_NAME;
/** Characters one call returns at most (about 5,000 tokens of English or code); core's, re-exported. */
export { DEFAULT_RETRIEVE_MAX_CHARS };
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
    description: RETRIEVE_CONTEXT_DESCRIPTION,
    parameters: RETRIEVE_CONTEXT_PARAMETERS,
    run: async (args) => {
      const { handle, from, to } = retrieveContextArguments(args);
      const record = await load(handle);
      if (record === undefined) throw new Error(`no text is kept under the handle ${JSON.stringify(handle)} in this conversation; use a handle exactly as a marker or placeholder names it`);
      return readRange(record.text, handle, from, to, typeof maxChars === "function" ? maxChars() : maxChars);
    },
  };
}

/** The reply: one line saying what was returned and how to go on, then the text itself (core's `readOffloadedRange`). */
export function readRange(text: string, handle: string, from: number | undefined, to: number | undefined, maxChars: number): string {
  return readOffloadedRange(text, handle, { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }), maxChars });
}
