// How many tokens an encoding makes of a text, kept beside a conversation so that a process which never
// saw it need not tokenize its history again. A cache: losing records costs only recounting.

/** How many tokens `encoding` makes of the text whose digest is `key` (a cache: losing records costs only recounting). */
export interface TokenCountRecord {
  /** The tokenizer's encoding ("o200k_base"); at most 64 characters. */
  readonly encoding: string;
  /** The text's digest (countKey from @ctxpipe/tokenizers): 1 to 64 letters, digits, "_" or "-". Opaque to the store. */
  readonly key: string;
  /** A non-negative integer. */
  readonly tokens: number;
}
