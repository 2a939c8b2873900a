// What the importer keeps of a LangChain message beyond what an item models, under
// `metadata.extra.langchain`, so the renderer gives back the message the user stored.
import type { Item } from "@ctxpipe/core";

export interface LangChainExtra {
  /** The item id was made from the message's position: the message had no id. */
  readonly idFromPosition?: true;
  /** The content when it was a list of blocks (restored when the item's text is unchanged). */
  readonly content?: ReadonlyArray<unknown>;
  readonly name?: string;
  readonly additional_kwargs?: Record<string, unknown>;
  readonly response_metadata?: Record<string, unknown>;
  readonly usage_metadata?: Record<string, unknown>;
  /** Calls the model produced with arguments that did not parse: kept, never sent. */
  readonly invalid_tool_calls?: ReadonlyArray<unknown>;
  readonly artifact?: unknown;
  /** A ToolMessage's status when it was given as "success" (an error is the item's isError). */
  readonly status?: "success";
  /** A ToolMessage's own metadata field. */
  readonly metadata?: Record<string, unknown>;
  /** The role of a ChatMessage ("generic"), e.g. "critic". */
  readonly role?: string;
  /** The message type when it was not the item's usual one ("function", "developer", "generic"). */
  readonly type?: string;
}

export function langChainExtraOf(item: Item): LangChainExtra | undefined {
  const kept = item.metadata.extra?.langchain;
  return typeof kept === "object" && kept !== null && !Array.isArray(kept) ? (kept as LangChainExtra) : undefined;
}
