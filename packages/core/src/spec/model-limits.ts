// What a plugin can say about a model's size limits, so that a build given only reserveOutputTokens
// gets the model's context window as its budget. Core knows no models; a registry (TokenizerPlugin
// from @ctxpipe/tokenizers) answers for the ones it knows.
export interface ModelLimits {
  /** Tokens the request and the reply may hold together: the context window the provider publishes. */
  readonly contextWindow: number;
  /**
   * The most tokens the request alone may hold, where the provider caps it below the window
   * (GPT-5: 272,000 of a 400,000-token window). Default: the whole window.
   */
  readonly maxInputTokens?: number;
}

/** What a model-limits plugin is asked for. */
export interface ModelLimitsRequest {
  readonly model: string | undefined;
}
