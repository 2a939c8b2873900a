// What an item keeps in `metadata.extra.openaiResponses` when it came from OpenAI's Responses API (the
// importer of stored Responses items, or a loop's reply from a Responses model): what the item model has
// no field for, so that the "openai-responses" renderer sends the history back as the API gave it.
// Other renderers ignore it. It is plain JSON, so it survives any store, and a Chat Completions message
// stored with a top-level `openaiResponses` field imports with this same value.

/** The key in `metadata.extra`. */
export const OPENAI_RESPONSES_EXTRA_KEY = "openaiResponses";

/**
 * One stored Responses item of an assistant turn, in the order the API returned them.
 * - `{ type: "message", id?, phase?, status?, content? }` and `{ type: "function_call", call_id, id?,
 *   namespace? }` are references: the text, name and arguments come from the item itself (compression
 *   may have changed them). A message's `content` is what the API gave (output_text parts with their
 *   annotations, refusal parts): it is sent back as it was while the item's text is still the text of
 *   the turn's messages (openAIResponsesTurnText). References stored before `content` was kept have none.
 * - Every other type (a `reasoning` item with its `id`, `summary` and `encrypted_content`, a
 *   `web_search_call`, …) is the stored item itself, sent back verbatim.
 */
export type OpenAIResponsesSequenceEntry =
  | {
      readonly type: "message";
      readonly id?: string;
      readonly phase?: "commentary" | "final_answer";
      readonly status?: string;
      readonly content?: string | ReadonlyArray<{ readonly type: string; readonly [field: string]: unknown }>;
    }
  | { readonly type: "function_call"; readonly call_id: string; readonly id?: string; readonly status?: string; readonly namespace?: string }
  | { readonly type: string; readonly [field: string]: unknown };

export interface OpenAIResponsesExtra {
  /** On an assistant item: the Responses items it was made from, in order (reasoning items included). */
  readonly sequence?: ReadonlyArray<OpenAIResponsesSequenceEntry>;
  /**
   * Stored items of a type ctxpipe has no model for, that stood right before this item outside any
   * assistant turn (a `compaction` item, an `item_reference`, …); sent back verbatim, before the item.
   */
  readonly before?: ReadonlyArray<{ readonly type: string; readonly [field: string]: unknown }>;
  /** The same for such items stored after the last item of the log. */
  readonly after?: ReadonlyArray<{ readonly type: string; readonly [field: string]: unknown }>;
  /**
   * On a tool result whose `function_call_output.output` was a list of content parts (images, files):
   * the list, sent back while the item's output is still the text it was imported as
   * (openAIResponsesOutputText: the text parts, and a marker such as `[image]` for each other part).
   */
  readonly outputParts?: ReadonlyArray<{ readonly type: string; readonly [field: string]: unknown }>;
  /**
   * On a user or system item whose stored `content` held parts the item model has no place for (an
   * image by file id or of detail "original", a file by URL): the stored list, sent back while the
   * item's text and attachments are still what it was imported as.
   */
  readonly content?: ReadonlyArray<{ readonly type: string; readonly [field: string]: unknown }>;
}

/** The item's Responses extra, when it has one that is an object. */
export function openAIResponsesExtraOf(item: { readonly metadata?: { readonly extra?: Readonly<Record<string, unknown>> | undefined } | undefined }): OpenAIResponsesExtra | undefined {
  const value = item.metadata?.extra?.[OPENAI_RESPONSES_EXTRA_KEY];
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as OpenAIResponsesExtra) : undefined;
}
