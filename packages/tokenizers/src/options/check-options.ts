// Validates the small option objects of this package by hand (no schema library on the counting
// path), reporting every problem at once the way core reports zod issues: "✖ problem → at field".
import { PluginOptionsError } from "@ctxpipe/core";

/** Returns what is wrong with a present value, or undefined when it is fine. */
export type OptionCheck = (value: unknown) => string | undefined;

export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) return String(value);
  return Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : typeof value;
}

/** Throws PluginOptionsError naming `owner` (a plugin or a function) and each bad field. */
export function checkOptions(owner: string, options: unknown, checks: Readonly<Record<string, OptionCheck>>): void {
  if (options === undefined) return;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new PluginOptionsError(owner, `✖ options must be an object, got ${describeValue(options)}`);
  }
  const issues: string[] = [];
  for (const [key, value] of Object.entries(options)) {
    const check = checks[key];
    if (check === undefined) {
      issues.push(`✖ Unrecognized key: "${key}" (known: ${Object.keys(checks).join(", ")})`);
      continue;
    }
    if (value === undefined) continue;
    const problem = check(value);
    if (problem !== undefined) issues.push(`✖ ${problem}\n  → at ${key}`);
  }
  if (issues.length > 0) throw new PluginOptionsError(owner, issues.join("\n"));
}

export function oneOf(values: ReadonlyArray<string>): OptionCheck {
  return (value) => (values.includes(value as string) ? undefined : `expected one of ${values.map((name) => `"${name}"`).join(" | ")}, got ${describeValue(value)}`);
}

export function numberBetween(min: number, max: number): OptionCheck {
  return (value) =>
    typeof value === "number" && Number.isFinite(value) && value >= min && value <= max ? undefined : `expected a number from ${min} to ${max}, got ${describeValue(value)}`;
}

export const finiteNumber: OptionCheck = (value) => (typeof value === "number" && Number.isFinite(value) ? undefined : `expected a finite number, got ${describeValue(value)}`);

export const nonEmptyString: OptionCheck = (value) =>
  typeof value === "string" && value.trim().length > 0 ? undefined : `expected a non-empty string, got ${describeValue(value)}`;
