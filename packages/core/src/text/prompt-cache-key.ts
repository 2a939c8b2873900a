// OpenAI refuses a prompt_cache_key longer than 64 characters (in Chat Completions and the Responses
// API alike), and the loops pass a conversation or run id, which can be longer. A key is sent as
// given while it fits; a longer one becomes its start plus a hash of the whole key, the same in every
// process, so requests of one conversation keep reaching the same cache and two keys that start alike
// still reach different ones.
import { contentHandle } from "./content-handle.js";

/** The longest prompt_cache_key OpenAI takes. */
export const MAX_PROMPT_CACHE_KEY_LENGTH = 64;
/** Hex digits of the 64-bit hash a shortened key ends with. */
const HASH_LENGTH = 16;

/**
 * `key` itself when it has at most 64 characters; else its first 47 characters, "-", and 16 hex digits
 * of the 64-bit FNV-1a hash of the whole key (contentHandle's): 64 characters.
 */
export function fitPromptCacheKey(key: string): string {
  if (key.length <= MAX_PROMPT_CACHE_KEY_LENGTH) return key;
  let start = key.slice(0, MAX_PROMPT_CACHE_KEY_LENGTH - HASH_LENGTH - 1);
  // Half of a character outside the BMP is not a character a server can read back: it is left out.
  if (/[\uD800-\uDBFF]$/.test(start)) start = start.slice(0, -1);
  return `${start}-${contentHandle(key).slice(-HASH_LENGTH)}`;
}
