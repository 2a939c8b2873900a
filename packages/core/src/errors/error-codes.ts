// Every error code ctxpipe core raises, kept in one sorted list so codes stay unique and findable.
export const ERROR_CODES = {
  BUDGET_EXCEEDED: "BUDGET_EXCEEDED",
  CONTEXT_INVALID: "CONTEXT_INVALID",
  INPUT_INVALID: "INPUT_INVALID",
  OPTIONS_INVALID: "OPTIONS_INVALID",
  PIPELINE_FROZEN: "PIPELINE_FROZEN",
  PLUGIN_FAILED: "PLUGIN_FAILED",
  RENDERER_NOT_FOUND: "RENDERER_NOT_FOUND",
  TOKENIZER_NOT_FOUND: "TOKENIZER_NOT_FOUND",
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
