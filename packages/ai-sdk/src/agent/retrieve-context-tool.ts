// retrieve_context as an AI SDK tool: the model passes a handle a marker or placeholder names, and a
// range, and gets that part of the original back, bounded to maxChars per call, in the same reply the
// loops give (core's readOffloadedRange). A bad argument or an unknown handle throws, which the AI SDK
// sends to the model as the call's error, so it can correct the call.
import {
  RETRIEVE_CONTEXT_DESCRIPTION,
  RETRIEVE_CONTEXT_PARAMETERS,
  RETRIEVE_CONTEXT_TOOL_NAME,
  type RetrieveContextArguments,
  readOffloadedRange,
  retrieveContextArguments,
} from "@ctxpipe/core";
import { type JSONSchema7, jsonSchema, type Tool, tool } from "ai";

/** The tool set `context.tools` is: retrieve_context alone, to spread into generateText's tools. */
export type AiSdkRetrieveTools = {
  readonly retrieve_context: Tool<RetrieveContextArguments, string>;
};

/** Finds the whole text kept under a handle, or undefined when none is. */
export type OffloadedTextLoader = (handle: string) => string | undefined | Promise<string | undefined>;

export function retrieveContextTools(load: OffloadedTextLoader, maxChars: () => number): AiSdkRetrieveTools {
  return {
    [RETRIEVE_CONTEXT_TOOL_NAME]: tool({
      description: RETRIEVE_CONTEXT_DESCRIPTION,
      // No validate function: the arguments are checked in execute, whose messages say what to fix.
      inputSchema: jsonSchema<RetrieveContextArguments>(RETRIEVE_CONTEXT_PARAMETERS as unknown as JSONSchema7),
      execute: async (input: unknown) => {
        const { handle, from, to } = retrieveContextArguments(input);
        const text = await load(handle);
        if (text === undefined) throw new Error(`no text is kept under the handle ${JSON.stringify(handle)} in this conversation; use a handle exactly as a marker or placeholder names it`);
        return readOffloadedRange(text, handle, { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }), maxChars: maxChars() });
      },
    }),
  } as AiSdkRetrieveTools;
}
