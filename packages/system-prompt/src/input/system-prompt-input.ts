// Everything the composed system prompt depends on, in the composer's own input types.
import type { AgentInfo } from "./agent-info.js";
import type { RunContext, RunContextInput, RunDirectiveOptions } from "./run-context.js";
import type { SessionMode } from "./session-mode.js";
import type { ToolPolicyConfig } from "./tool-policy-config.js";

export interface SystemPromptInput {
  readonly mode: SessionMode;
  /** The persona section, or the agent's precompiled systemPrompt in its place. */
  readonly agent?: AgentInfo;
  /** The agent-level tool policy (toolPolicy, mapped from the agent's tools). */
  readonly toolPolicy?: ToolPolicyConfig;
  /** The system-level tool policy, merged with the agent-level one; a deny at either level wins. */
  readonly systemToolPolicy?: ToolPolicyConfig;
  /** Run mode only: the run directive, nested or flat. Ignored (with a warning from the plugin) in chat and agent mode. */
  readonly runContext?: RunContextInput;
  /** Run mode only: which parts of the run state the run directive shows. Default: neither variables nor artifacts. */
  readonly runDirective?: RunDirectiveOptions;
}

/** The input once validated: a flat run context has been read into the nested one. */
export interface ParsedSystemPromptInput extends Omit<SystemPromptInput, "runContext"> {
  readonly runContext?: RunContext;
}
