// The sections of the chat/agent/run system prompt, in their order, from input that has been validated.
// Sections with no text (a policy listing nothing, no agent, no run context) are left out.
import type { ParsedSystemPromptInput } from "./input/system-prompt-input.js";
import { mergeToolPolicies } from "./policy/merge-tool-policies.js";
import { baseRulesSection } from "./sections/base-rules-section.js";
import { modeSection } from "./sections/mode-section.js";
import { personaSection } from "./sections/persona-section.js";
import { runDirectiveSection } from "./sections/run-directive-section.js";
import { toolPolicySection } from "./sections/tool-policy-section.js";
import { SYSTEM_PART_IDS } from "./system-part-ids.js";
import { SYSTEM_PART_ORDER } from "./system-part-order.js";
import type { Templates } from "./templates/default-templates.js";

/** One section, as it is added to the system prompt's parts. */
export interface SystemSection {
  readonly id: (typeof SYSTEM_PART_IDS)["MODE" | "BASE_RULES" | "TOOL_POLICY" | "PERSONA" | "RUN_DIRECTIVE"];
  readonly text: string;
  readonly order: number;
}

export function buildSystemSections(input: ParsedSystemPromptInput, templates: Templates): SystemSection[] {
  const sections: SystemSection[] = [
    { id: SYSTEM_PART_IDS.MODE, text: modeSection(input.mode), order: SYSTEM_PART_ORDER.MODE },
    { id: SYSTEM_PART_IDS.BASE_RULES, text: baseRulesSection(input.mode, input.runContext?.status, templates), order: SYSTEM_PART_ORDER.BASE_RULES },
    {
      id: SYSTEM_PART_IDS.TOOL_POLICY,
      text: toolPolicySection(mergeToolPolicies(input.systemToolPolicy, input.toolPolicy), templates),
      order: SYSTEM_PART_ORDER.TOOL_POLICY,
    },
  ];
  if (input.agent !== undefined) sections.push({ id: SYSTEM_PART_IDS.PERSONA, text: personaSection(input.agent), order: SYSTEM_PART_ORDER.PERSONA });
  if (input.mode === "run" && input.runContext !== undefined) {
    sections.push({ id: SYSTEM_PART_IDS.RUN_DIRECTIVE, text: runDirectiveSection(input.runContext, templates, input.runDirective), order: SYSTEM_PART_ORDER.RUN_DIRECTIVE });
  }
  return sections.filter((section) => section.text.length > 0);
}
