// Stable ids of the system prompt's parts: the report's systemParts entries carry them, with each
// part's own token cost.
import type { SYSTEM_PART_ORDER } from "./system-part-order.js";

export const SYSTEM_PART_IDS = {
  MODE: "mode",
  BASE_RULES: "base-rules",
  TOOL_POLICY: "tool-policy",
  PERSONA: "persona",
  RUN_DIRECTIVE: "run-directive",
  USER_PROMPT: "user-prompt",
  DATA_CONTEXT: "data-context",
  SUMMARY: "summary",
} as const satisfies Record<keyof typeof SYSTEM_PART_ORDER, string>;

export type SystemPartId = (typeof SYSTEM_PART_IDS)[keyof typeof SYSTEM_PART_IDS];
