// The portable subset (reference/providers.md §6): what OpenAI, Anthropic and Gemini all accept.

/** Tool-call ids: OpenAI allows 40 characters (OAI-009), Anthropic this alphabet (ANT-010). */
export const CALL_ID_PATTERN = /^[a-zA-Z0-9_-]{1,40}$/;
export const MAX_CALL_ID_LENGTH = 40;

/** Tool names: OpenAI's alphabet and length (OAI-008), and Gemini's leading letter or underscore (GEM-020). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;
export const MAX_TOOL_NAME_LENGTH = 64;

/** OpenAI rejects any single string longer than this (OAI-010). */
export const PROVIDER_MAX_STRING_LENGTH = 10_485_760;
