// What the loop needs from a model: send the request a renderer produced, get the reply back. An adapter
// names the renderer whose request it sends, so the pipeline renders for the model that is called.
import type { RendererName, RendererOutputMap } from "@ctxpipe/core";

/** A tool call the model made. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments as JSON text, as the model produced them (they may not parse). */
  readonly arguments: string;
}

export interface ModelUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface ModelReply {
  /** The reply's text; "" when the model only called tools. */
  readonly text: string;
  readonly toolCalls: ReadonlyArray<ModelToolCall>;
  /** Why the model stopped, in the provider's words ("stop", "tool_calls", "end_turn", "max_tokens"). */
  readonly stopReason?: string;
  readonly usage?: ModelUsage;
  /**
   * Fields the loop stores on the assistant message beside its text and calls, which the importers keep
   * in `metadata.extra`: what a renderer needs to send the turn back as the provider gave it. The
   * Responses adapter sets `openaiResponses` (reasoning items and item ids). Plain JSON; fields the
   * stored message shape already has (id, role, content …) are not taken from here.
   */
  readonly extra?: Readonly<Record<string, unknown>>;
}

export interface ModelCall<Request> {
  readonly request: Request;
  /** Aborting rejects the call with a ModelError of code LLM_ABORTED. */
  readonly signal?: AbortSignal;
  /**
   * Called with each piece of text as it arrives when the adapter streams; the reply still has it all.
   * The adapters of this package call it once with the whole text when they do not stream, so the
   * pieces always add up to reply.text. An error it throws rejects the call unchanged (not as a
   * ModelError) and ends the request.
   */
  readonly onText?: (delta: string) => void;
}

export interface ModelAdapter<R extends RendererName = RendererName> {
  /** For reports and errors, e.g. "openai-compatible (gpt-4o-mini)". */
  readonly name: string;
  /** The renderer whose request complete() takes. */
  readonly renderer: R;
  /** The model name put in the request, when the adapter has one. */
  readonly model?: string;
  /** Sends the request. Rejects with ModelError, whose code starts with "LLM_". */
  complete(call: ModelCall<RendererOutputMap[R]>): Promise<ModelReply>;
}
