// What an item imported from the AI SDK keeps of its source that the item model has no field for, in
// `metadata.extra.aiSdk`, so that the "ai-sdk" renderer can give it back: provider options, the parts
// ctxpipe does not model, the tool output's type, a UI tool part's state.
import type { Item } from "@ctxpipe/core";

/** The key under `metadata.extra` that holds an item's AiSdkExtra. */
export const AI_SDK_EXTRA_KEY = "aiSdk";

export interface AiSdkExtra {
  /** The message's own `providerOptions` (a UI message's has none). */
  readonly providerOptions?: unknown;
  /**
   * The message's content as imported (a ModelMessage's, or the one a UI message's parts stand for).
   * While the item still says what this content says, the renderer sends this content as it is, so
   * provider options, part order and split text parts come back exactly.
   */
  readonly content?: ReadonlyArray<unknown> | string;
  /**
   * Parts the item has no field for, verbatim and in order: files and custom parts of an assistant,
   * calls a provider executed with their results, approval requests and responses, UI-only parts.
   */
  readonly parts?: ReadonlyArray<unknown>;
  /** A tool result as imported: its part (output type, provider options). */
  readonly part?: unknown;
  /** Approval responses that came in the same tool message as this result. */
  readonly approvalResponses?: ReadonlyArray<unknown>;
  /** The UI message's `metadata`. */
  readonly uiMetadata?: unknown;
  /** UI parts that are never sent to a model (sources, data parts), verbatim. */
  readonly uiParts?: ReadonlyArray<unknown>;
  /**
   * The UI tool parts behind an assistant item's calls, or behind a tool result (one), without their
   * input and output: the state ("input-streaming" …) and what the item has no field for (approval,
   * title, rawInput, providerExecuted …).
   */
  readonly toolParts?: ReadonlyArray<Readonly<Record<string, unknown>>>;
}

/** The item's AiSdkExtra, or an empty one when it was not imported from the AI SDK. */
export function aiSdkExtraOf(item: Item): AiSdkExtra {
  const extra = item.metadata.extra?.[AI_SDK_EXTRA_KEY];
  return typeof extra === "object" && extra !== null && !Array.isArray(extra) ? (extra as AiSdkExtra) : {};
}

/** Metadata carrying an AiSdkExtra; `{}` when there is nothing to keep. */
export function metadataWith(extra: AiSdkExtra): { extra?: Record<string, unknown> } {
  const kept = Object.fromEntries(Object.entries(extra).filter(([, value]) => value !== undefined));
  return Object.keys(kept).length === 0 ? {} : { extra: { [AI_SDK_EXTRA_KEY]: kept } };
}
