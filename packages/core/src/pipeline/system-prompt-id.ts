/** Id of the system message the insert-system stage synthesizes from the system prompt parts. */
export const SYSTEM_PROMPT_ID = "ctxpipe:system-prompt";
