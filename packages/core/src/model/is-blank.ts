// Blank means nothing a model could read: whitespace, or characters that are invisible but that
// String.prototype.trim() keeps (zero-width spaces, joiners, the byte-order mark, soft hyphens).
const BLANK = /^(?:\s|\u200B|\u200C|\u200D|\u2060|\uFEFF|\u00AD)*$/;

export function isBlank(text: string): boolean {
  return BLANK.test(text);
}
