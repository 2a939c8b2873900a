// Replaces every match of the patterns in one piece of text with `[REDACTED:<name>]`, keeping JSON
// valid: tool-call arguments and many tool outputs are JSON, and a provider rejects broken arguments.
import type { SecretPattern } from "./secret-patterns.js";

export interface RedactedText {
  readonly text: string;
  /** The pattern name of every replacement, in the order they were made (a name repeats per match). */
  readonly found: ReadonlyArray<string>;
}

// Placeholders are left alone, so text redacted by an earlier build (or stored redacted) is not
// counted again and a broad custom pattern cannot rewrite one.
const PLACEHOLDER = /(\[REDACTED:[^\]\s]+\])/;
// In valid JSON every double quote outside a string opens one, so this matches exactly the string literals.
const JSON_STRING_LITERAL = /"(?:[^"\\]|\\.)*"/g;

function globalCopy(pattern: RegExp): RegExp {
  // Sticky matching would stop at the first gap between secrets; global is needed to replace them all.
  const flags = pattern.flags.replace("y", "");
  return new RegExp(pattern.source, flags.includes("g") ? flags : `${flags}g`);
}

function redactPlain(text: string, patterns: ReadonlyArray<SecretPattern>, found: string[]): string {
  let result = text;
  for (const { name, pattern } of patterns) {
    const global = globalCopy(pattern);
    const segments = result.split(PLACEHOLDER);
    for (let index = 0; index < segments.length; index += 2) {
      segments[index] = segments[index]!.replace(global, (match) => {
        // A pattern that can match nothing would otherwise insert a placeholder between every character.
        if (match.length === 0) return match;
        found.push(name);
        return `[REDACTED:${name}]`;
      });
    }
    result = segments.join("");
  }
  return result;
}

function parsesAsJson(text: string): boolean {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[" && first !== '"') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Redacts text; when the text is valid JSON, only inside its strings, and the result stays valid JSON. */
export function redactText(text: string, patterns: ReadonlyArray<SecretPattern>): RedactedText {
  const found: string[] = [];
  if (!parsesAsJson(text)) return { text: redactPlain(text, patterns, found), found };
  // Each string literal is decoded, redacted and re-encoded only when it changed, so the rest of the
  // text (spacing, key order, escapes) stays exactly as the model or the tool produced it.
  const redacted = text.replace(JSON_STRING_LITERAL, (literal) => {
    const value = JSON.parse(literal) as string;
    const before = found.length;
    const result = redactPlain(value, patterns, found);
    return found.length === before ? literal : JSON.stringify(result);
  });
  return { text: redacted, found };
}
