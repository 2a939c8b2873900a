// The composer without a pipeline: validates the input and returns the sections the plugin adds.
import { z } from "zod";
import { buildSystemSections, type SystemSection } from "./build-system-sections.js";
import type { ParsedSystemPromptInput, SystemPromptInput } from "./input/system-prompt-input.js";
import { systemPromptInputSchema } from "./input/system-prompt-input-schema.js";
import { parseOrThrow } from "./parse-or-throw.js";
import type { TemplateOverrides } from "./templates/default-templates.js";
import { resolveTemplates, templateOverridesSchema } from "./templates/resolve-templates.js";

const composeOptionsSchema = z.strictObject({ templates: templateOverridesSchema.optional() });

export interface ComposeOptions {
  /** Replacement text for any of the markdown templates. */
  readonly templates?: TemplateOverrides;
}

/** Throws SystemPromptInputError naming the field when the input or a template override is invalid. */
export function composeSystemSections(input: SystemPromptInput, options: ComposeOptions = {}): SystemSection[] {
  const source = "composeSystemSections()";
  const parsed = parseOrThrow(source, systemPromptInputSchema, input) as ParsedSystemPromptInput;
  const checked = parseOrThrow(source, composeOptionsSchema, options) as ComposeOptions;
  return buildSystemSections(parsed, resolveTemplates(checked.templates));
}
