// The plugins every pipeline starts with, each replaceable: pass a plugin with the same name, or
// switch one off with `defaults: { filter: false }`.
import { EstimatingTokenizerPlugin } from "../plugins/estimating-tokenizer-plugin.js";
import { FailedCallsPlugin } from "../plugins/failed-calls-plugin.js";
import { FitBudgetPlugin } from "../plugins/fit-budget-plugin.js";
import { FilterPlugin } from "../plugins/filter-plugin.js";
import { HardLimitsPlugin } from "../plugins/hard-limits-plugin.js";
import { InsertSystemPlugin } from "../plugins/insert-system-plugin.js";
import { RepairOrphansPlugin } from "../plugins/repair-orphans-plugin.js";
import { ValidatePlugin } from "../plugins/validate-plugin.js";
import { OpenAIChatRendererPlugin } from "../renderers/openai-chat/openai-chat-renderer-plugin.js";
import type { PipelinePlugin } from "./pipeline-hooks.js";

const FACTORIES = {
  fitBudget: () => new FitBudgetPlugin(),
  filter: () => new FilterPlugin(),
  failedCalls: () => new FailedCallsPlugin(),
  hardLimits: () => new HardLimitsPlugin(),
  repairOrphans: () => new RepairOrphansPlugin(),
  insertSystem: () => new InsertSystemPlugin(),
  validate: () => new ValidatePlugin(),
  openaiRenderer: () => new OpenAIChatRendererPlugin(),
  tokenizer: () => new EstimatingTokenizerPlugin(),
} as const satisfies Record<string, () => PipelinePlugin>;

export type DefaultPluginName = keyof typeof FACTORIES;
export const DEFAULT_PLUGIN_NAMES = Object.keys(FACTORIES) as DefaultPluginName[];
export type DefaultPluginSettings = Partial<Record<DefaultPluginName, boolean>>;

/**
 * The key that switches off the default plugin a user named some other way: by its plugin name or
 * class name ("OpenAIChatRendererPlugin" → "openaiRenderer"), or by its key in another case.
 * Undefined when the name fits no default plugin.
 */
export function defaultPluginKeyFor(name: string): DefaultPluginName | undefined {
  const lower = name.toLowerCase();
  return DEFAULT_PLUGIN_NAMES.find((key) => {
    if (key.toLowerCase() === lower) return true;
    const plugin = FACTORIES[key]();
    return plugin.name === name || plugin.constructor.name === name;
  });
}

export function defaultPlugins(settings: boolean | DefaultPluginSettings): PipelinePlugin[] {
  if (settings === false) return [];
  const chosen = settings === true ? {} : settings;
  return DEFAULT_PLUGIN_NAMES.filter((name) => chosen[name] !== false).map((name) => FACTORIES[name]());
}
