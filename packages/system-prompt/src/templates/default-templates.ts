// The markdown templates that ship with the package, by name. Trailing whitespace is trimmed (here and
// from overrides), since the sections around a template supply their own separators.
import { DEFAULT_TEMPLATE_FILES } from "./default-template-files.js";

export type TemplateName = keyof typeof DEFAULT_TEMPLATE_FILES;

export type Templates = Readonly<Record<TemplateName, string>>;

/** Replacement text for any of the templates; the rest keep their defaults. */
export type TemplateOverrides = Partial<Templates>;

export const TEMPLATE_NAMES = Object.keys(DEFAULT_TEMPLATE_FILES).sort() as TemplateName[];

export const DEFAULT_TEMPLATES: Templates = Object.freeze(
  Object.fromEntries(TEMPLATE_NAMES.map((name) => [name, DEFAULT_TEMPLATE_FILES[name].trimEnd()])) as Record<TemplateName, string>,
);
