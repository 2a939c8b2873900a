// Composes the system prompt on the insert-system stage: adds each of the composer's sections as its own
// system part (stable id, SYSTEM_PART_ORDER), which core's InsertSystemPlugin then merges. Register it
// through systemPromptPlugins(), which also sets that merge's separator to the composer's `---`.
import { type PipelinePlugin, type PluginHost, type RendererName, STAGE, SYSTEM_PROMPT_ID, type StageContext } from "@ctxpipe/core";
import { z } from "zod";
import { buildSystemSections } from "./build-system-sections.js";
import type { AgentInfo } from "./input/agent-info.js";
import type { RunContextInput, RunDirectiveOptions } from "./input/run-context.js";
import type { SessionMode } from "./input/session-mode.js";
import type { ParsedSystemPromptInput, SystemPromptInput } from "./input/system-prompt-input.js";
import { buildOptionsInputSchema, systemPromptDefaultsSchema } from "./input/system-prompt-input-schema.js";
import type { ToolPolicyConfig } from "./input/tool-policy-config.js";
import { parseOrThrow } from "./parse-or-throw.js";
import { SECTION_SEPARATOR } from "./section-separator.js";
import type { TemplateOverrides, Templates } from "./templates/default-templates.js";
import { resolveTemplates, templateOverridesSchema } from "./templates/resolve-templates.js";

declare module "@ctxpipe/core" {
  interface BuildOptions<R extends RendererName = RendererName> {
    /** The session mode (chat, agent or run); required by SystemPromptPlugin unless given to its constructor. */
    mode?: SessionMode;
    /** The agent whose persona (or precompiled systemPrompt) the prompt carries. */
    agent?: AgentInfo;
    /** The agent-level tool policy. */
    toolPolicy?: ToolPolicyConfig;
    /** The system-level tool policy; merged with toolPolicy, a deny at either level winning. */
    systemToolPolicy?: ToolPolicyConfig;
    /** Run mode: where the workflow run stands, nested (`currentStep`) or flat (`currentStepId`, `currentStepName`, `stepInstruction`). */
    runContext?: RunContextInput;
    /** Run mode: show the run state's variables and/or artifacts in the run directive. Default neither. */
    runDirective?: RunDirectiveOptions;
  }
}

const PLUGIN_NAME = "SystemPromptPlugin";

const INPUT_FIELDS = ["mode", "agent", "toolPolicy", "systemToolPolicy", "runContext", "runDirective"] as const;

const systemPromptPluginOptionsSchema = z.strictObject({
  ...systemPromptDefaultsSchema,
  templates: templateOverridesSchema.optional(),
  /** Any position before core's InsertSystemPlugin (STAGE.LATE) works: parts are ordered by SYSTEM_PART_ORDER. */
  stage: z.number().default(STAGE.DEFAULT),
});

export interface SystemPromptPluginOptions extends Partial<SystemPromptInput> {
  /** Replacement text for any of the markdown templates. */
  readonly templates?: TemplateOverrides;
  /** Tap position inside the insert-system stage. Default STAGE.DEFAULT. */
  readonly stage?: number;
}

export class SystemPromptPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  /** Inputs given to the constructor: each one applies to every build that does not give its own. */
  readonly #defaults: Partial<ParsedSystemPromptInput>;
  readonly #templates: Templates;
  readonly #stage: number;

  constructor(options: SystemPromptPluginOptions = {}) {
    const parsed = parseOrThrow(PLUGIN_NAME, systemPromptPluginOptionsSchema, options);
    this.#defaults = Object.fromEntries(INPUT_FIELDS.filter((field) => parsed[field] !== undefined).map((field) => [field, parsed[field]]));
    this.#templates = resolveTemplates(parsed.templates as TemplateOverrides | undefined);
    this.#stage = parsed.stage;
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.insertSystem.tap({ name: PLUGIN_NAME, stage: this.#stage }, (_items, context) => {
      if (context.options.includeSystemPrompt === false) return undefined;
      const input = this.#inputOf(context);
      if (input.mode !== "run" && input.runContext !== undefined) context.warn(`runContext is ignored in ${input.mode} mode: the run directive is for run mode only`);
      if (input.mode === "run" && input.runContext === undefined) context.warn("run mode without a runContext: the prompt has no run directive, so the model is not told where the run stands");
      for (const section of buildSystemSections(input, this.#templates)) context.system.add(section);
      return undefined;
    });
    // Core's InsertSystemPlugin joins parts with "\n\n" unless told otherwise: say so rather than
    // send a prompt without the composer's `---` rules.
    pipeline.hooks.insertSystem.tap({ name: PLUGIN_NAME, stage: STAGE.LAST }, (items, context) => {
      const parts = context.system.list().filter((part) => part.text.length > 0);
      if (!parts.some((part) => part.addedBy === PLUGIN_NAME)) return undefined;
      const system = items.find((item) => item.id === SYSTEM_PROMPT_ID);
      if (system === undefined || system.type !== "system") return undefined;
      if (system.text !== parts.map((part) => part.text).join(SECTION_SEPARATOR)) {
        context.warn('the system prompt\'s sections are not joined by "---": register systemPromptPlugins(), which sets InsertSystemPlugin\'s separator to SECTION_SEPARATOR');
      }
      return undefined;
    });
  }

  /** The build's own inputs over the constructor's, field by field, validated together. */
  #inputOf(context: StageContext): ParsedSystemPromptInput {
    const options: Readonly<Record<string, unknown>> = context.options;
    const merged = Object.fromEntries(INPUT_FIELDS.map((field) => [field, options[field] ?? this.#defaults[field]]));
    return parseOrThrow(PLUGIN_NAME, buildOptionsInputSchema, merged) as ParsedSystemPromptInput;
  }
}
