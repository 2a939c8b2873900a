// @ctxpipe/system-prompt: the system prompt for chat, agent and run mode, composed on the
// insert-system stage as one system part per section.

export type { SystemSection } from "./build-system-sections.js";
export { type ComposeOptions, composeSystemSections } from "./compose-system-sections.js";
export { composeSystemPrompt } from "./compose-system-prompt.js";
export type { AgentInfo } from "./input/agent-info.js";
export { readRunContext } from "./input/read-run-context.js";
export type {
  ActiveFlatRunContext,
  ActiveRunContext,
  CompletedFlatRunContext,
  CompletedRunContext,
  FlatRunContext,
  RunContext,
  RunContextInput,
  RunDirectiveOptions,
  RunGraph,
  RunState,
  RunStep,
  RunTransition,
  WorkflowStatus,
} from "./input/run-context.js";
export { SESSION_MODES, type SessionMode } from "./input/session-mode.js";
export type { SystemPromptInput } from "./input/system-prompt-input.js";
/** The zod schemas of an agent and a tool policy, for code that checks them before a build does (a workflow step's settings). */
export { agentInfoSchema, toolPolicyConfigSchema } from "./input/system-prompt-input-schema.js";
export type { ToolPolicyConfig } from "./input/tool-policy-config.js";
export { mergeToolPolicies } from "./policy/merge-tool-policies.js";
export { SECTION_SEPARATOR } from "./section-separator.js";
export { SYSTEM_PART_IDS, type SystemPartId } from "./system-part-ids.js";
export { SYSTEM_PART_ORDER } from "./system-part-order.js";
export { SystemPromptInputError } from "./system-prompt-input-error.js";
export { SystemPromptPlugin, type SystemPromptPluginOptions } from "./system-prompt-plugin.js";
export { systemPromptPlugins } from "./system-prompt-plugins.js";
export {
  DEFAULT_TEMPLATES,
  TEMPLATE_NAMES,
  type TemplateName,
  type TemplateOverrides,
  type Templates,
} from "./templates/default-templates.js";
