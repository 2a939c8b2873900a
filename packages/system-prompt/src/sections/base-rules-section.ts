import type { SessionMode } from "../input/session-mode.js";
import type { WorkflowStatus } from "../input/run-context.js";
import type { Templates } from "../templates/default-templates.js";

/**
 * Run mode has its own rules, and a completed run (run mode's post-completion profile) rules with no
 * step to work on; chat and agent mode share the chat rules.
 */
export function baseRulesSection(mode: SessionMode, status: WorkflowStatus | undefined, templates: Templates): string {
  if (mode !== "run") return templates["base-rules-chat"];
  return status === "completed" ? templates["base-rules-run-completed"] : templates["base-rules-run"];
}
