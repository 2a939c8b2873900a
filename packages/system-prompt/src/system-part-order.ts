// Where each part of the system prompt goes: parts merge lowest order first. The composed sections
// come first, in the composer's order; the extra parts other plugins add follow, the ones that change
// most often last, so a provider's prompt cache keeps the longest prefix. Core's build-option
// `system` parts default to order 0, which is USER_PROMPT. Gaps of 100 leave room in between.
export const SYSTEM_PART_ORDER = {
  MODE: -500,
  BASE_RULES: -400,
  TOOL_POLICY: -300,
  PERSONA: -200,
  RUN_DIRECTIVE: -100,
  /** A prompt the user or application supplies; core's default for `system` parts. */
  USER_PROMPT: 0,
  /** Data the model should see (a project's files, a record), added by a retrieval plugin. */
  DATA_CONTEXT: 100,
  /** A summary of compacted history, when a compression strategy places it in the system prompt. */
  SUMMARY: 200,
} as const;
