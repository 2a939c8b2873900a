// Model name → registry entry, by a fixed rule and never by loose substring matching:
//   1. compare case-insensitively, ignoring surrounding spaces and one leading "openai/",
//      "anthropic/", "google/" or "models/" (gateway ids, Gemini resource names);
//   2. look the name up among the family names and aliases;
//   3. otherwise drop one snapshot suffix and look it up again: a date "-2024-08-06" (OpenAI) or
//      "-20250514" (Anthropic), a month and day "-0613" (older OpenAI), a version "-001" (Gemini),
//      or "-latest".
// Anything else is unknown: UnknownModelError, with the closest names as suggestions.
import { UnknownModelError } from "../errors/unknown-model-error.js";
import { closeModelNames } from "./close-model-names.js";
import { KNOWN_MODELS, type KnownModel } from "./known-models.js";
import type { ModelInfo } from "./model-info.js";

const PROVIDER_PREFIX = /^(?:openai|anthropic|google|models)\//;
const MONTH = "(?:0[1-9]|1[0-2])";
const DAY = String.raw`(?:0[1-9]|[12]\d|3[01])`;
const SNAPSHOT_SUFFIX = new RegExp(String.raw`-(?:20\d\d-${MONTH}-${DAY}|20\d\d${MONTH}${DAY}|${MONTH}${DAY}|\d{3}|latest)$`);

const byName = new Map<string, KnownModel>();
for (const entry of KNOWN_MODELS) {
  for (const name of [entry.model, ...entry.aliases]) byName.set(name, entry);
}

function normalize(name: string): string {
  return name.trim().toLowerCase().replace(PROVIDER_PREFIX, "");
}

function toInfo(entry: KnownModel): ModelInfo {
  const { aliases: _aliases, ...info } = entry;
  return Object.freeze(info);
}

/** The registry entry for a model name, or undefined when the rule above finds none. */
export function findModel(name: string): ModelInfo | undefined {
  if (typeof name !== "string") return undefined;
  const normalized = normalize(name);
  const entry = byName.get(normalized) ?? byName.get(normalized.replace(SNAPSHOT_SUFFIX, ""));
  return entry === undefined ? undefined : toInfo(entry);
}

/**
 * What the registry knows about a model: provider, encoding, context window, output limit and
 * whether local counts are exact. Dated snapshots resolve to their family ("gpt-4o-2024-08-06" →
 * "gpt-4o", "claude-sonnet-4-20250514" → "claude-sonnet-4").
 *
 * @throws UnknownModelError when the name is not known, with close known names as `suggestions`.
 */
export function resolveModel(name: string): ModelInfo {
  const info = findModel(name);
  if (info === undefined) throw new UnknownModelError(String(name), typeof name === "string" ? closeModelNames(normalize(name)) : []);
  return info;
}

/** Every model family the registry knows, in the order of docs/tokenizers.md's table. */
export const MODELS: ReadonlyArray<ModelInfo> = Object.freeze(KNOWN_MODELS.map(toInfo));
