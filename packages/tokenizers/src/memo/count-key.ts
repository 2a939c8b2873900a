// The key a persisted token count is filed under: a digest of the text, so a text that changed never
// matches the count of what it was, and a store keeps 30 characters instead of the text.
import { hash } from "node:crypto";

/** What a key looks like: up to 64 characters of [A-Za-z0-9_-]. */
export const COUNT_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The key of `text`'s token count: its length in UTF-16 code units, then 132 bits of its SHA-256 in
 * base64url. The same text always gets the same key; two texts sharing one would take a collision of
 * SHA-256.
 *
 * @example
 * countKey("Hello world"); // "11-ZOyIygCyaOW6GjVnihtTFt"
 */
export function countKey(text: string): string {
  // UTF-8 is the cheap way to hash, but it turns a lone surrogate into U+FFFD, so "\uD800" and "\uFFFD"
  // would share a digest: such texts hash their UTF-16 code units instead, under another separator.
  if (text.isWellFormed()) return `${text.length}-${hash("sha256", text, "base64url").slice(0, 22)}`;
  return `${text.length}_${hash("sha256", Buffer.from(text, "utf16le"), "base64url").slice(0, 22)}`;
}
