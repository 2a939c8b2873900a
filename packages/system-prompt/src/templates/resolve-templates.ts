// Overrides laid over the default templates, validated so a misspelt template name is an error
// rather than an override that silently never applies.
import { z } from "zod";
import { DEFAULT_TEMPLATES, TEMPLATE_NAMES, type TemplateOverrides, type Templates } from "./default-templates.js";

export const templateOverridesSchema = z.strictObject(Object.fromEntries(TEMPLATE_NAMES.map((name) => [name, z.string().optional()])));

/** Assumes overrides that passed templateOverridesSchema. */
export function resolveTemplates(overrides: TemplateOverrides | undefined): Templates {
  if (overrides === undefined) return DEFAULT_TEMPLATES;
  const resolved: Record<string, string> = { ...DEFAULT_TEMPLATES };
  for (const name of TEMPLATE_NAMES) {
    const text = overrides[name];
    if (text !== undefined) resolved[name] = text.trimEnd();
  }
  return Object.freeze(resolved as Record<keyof Templates, string>);
}
