import type { SessionMode } from "../input/session-mode.js";
import type { Templates } from "../templates/default-templates.js";

/** Run mode has its own rules; chat and agent mode share the chat rules (seed 000). */
export function baseRulesSection(mode: SessionMode, templates: Templates): string {
  return mode === "run" ? templates["base-rules-run"] : templates["base-rules-chat"];
}
