// Suggestions for an unknown model name, for the error message only (never used to resolve): known
// families the name extends ("gpt-4o-audio-preview" → "gpt-4o"), then names within a few edits.
import { KNOWN_MODELS } from "./known-models.js";

const MAX_SUGGESTIONS = 3;

function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const substitution = previous[column - 1]! + (left[row - 1] === right[column - 1] ? 0 : 1);
      current.push(Math.min(previous[column]! + 1, current[column - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[right.length]!;
}

export function closeModelNames(normalized: string): string[] {
  const names = KNOWN_MODELS.map((entry) => entry.model);
  const extended = names.filter((name) => normalized.startsWith(`${name}-`)).sort((left, right) => right.length - left.length);
  const limit = Math.max(2, Math.floor(normalized.length / 4));
  const near = names
    .map((name) => ({ name, distance: editDistance(normalized, name) }))
    .filter(({ name, distance }) => distance <= limit && !extended.includes(name))
    .sort((left, right) => left.distance - right.distance || left.name.localeCompare(right.name))
    .map(({ name }) => name);
  return [...extended, ...near].slice(0, MAX_SUGGESTIONS);
}
