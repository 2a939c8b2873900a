// Token counts a process can hand to the next one: a memo under an exact encoding that files each count
// under the text's digest (countKey), so a process that loads the records of a conversation never
// tokenizes its texts again, and a text that changed is counted afresh. Only base-encoding counts are
// kept: an approximation's factor is applied on top of the memo, so a calibrated factor never enters a
// record.
import { CtxpipeError, ERROR_CODES, PluginOptionsError } from "@ctxpipe/core";
import { type ApproximateTokenizer, createApproximateTokenizer } from "../approximate/approximate-tokenizer.js";
import type { EncodingName } from "../encodings/encoding-name.js";
import { isEncodingName } from "../encodings/encoding-name.js";
import type { ExactTokenizer } from "../exact-tokenizer.js";
import { checkOptions, describeValue } from "../options/check-options.js";
import { countKey } from "./count-key.js";

/** How many tokens `encoding` makes of the text whose countKey() is `key`. The shape @ctxpipe/store persists. */
export interface TokenCountRecord {
  readonly encoding: string;
  readonly key: string;
  readonly tokens: number;
}

/** A record add() left out, and why. */
export interface SkippedTokenCount {
  /** Its position in the records given to add(). */
  readonly index: number;
  /** The field that is wrong: "record" when it is not an object at all. */
  readonly field: "record" | "encoding" | "key" | "tokens";
  readonly reason: string;
}

/** What add() did with the records it was given. */
export interface TokenCountLoad {
  /** Counts the memo did not know and now does. */
  readonly added: number;
  /** Records of a key the memo already knew: the count it had stays. */
  readonly known: number;
  /** Records of another encoding (the conversation was also counted for another model): not this memo's. */
  readonly otherEncoding: number;
  /** Records that cannot be a count (a torn or hand-edited store): left out, never an error. */
  readonly skipped: ReadonlyArray<SkippedTokenCount>;
}

export interface TokenCountMemoOptions {
  /**
   * Texts shorter than this (in UTF-16 code units) are counted directly and get no record: hashing and
   * filing them costs about what counting them does. Default DEFAULT_MEMO_MIN_LENGTH (128).
   */
  readonly minLength?: number;
}

/**
 * Shorter texts are not worth a record. Measured on the bench's agent conversation with o200k_base:
 * below about 128 characters, counting a text (3–8 µs) costs little more than its digest and a lookup
 * (1.5–2 µs) plus loading its record; such texts are a tenth of the messages and under 0.1% of the
 * characters.
 */
export const DEFAULT_MEMO_MIN_LENGTH = 128;

/** A countKey() ends with "-" or "_" and 22 base64url characters, after the text's length. */
const DIGEST_LENGTH = 22;
const MAX_LENGTH_DIGITS = 16;

function isBase64Url(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 45 || code === 95;
}

/** The text length a countKey() names, or undefined for a string that is not one. By hand: a regular expression costs several times as much per record. */
function keyTextLength(key: string): number | undefined {
  const separator = key.length - DIGEST_LENGTH - 1;
  if (separator < 1 || separator > MAX_LENGTH_DIGITS) return undefined;
  const mark = key.charCodeAt(separator);
  if (mark !== 45 && mark !== 95) return undefined;
  for (let index = separator + 1; index < key.length; index++) if (!isBase64Url(key.charCodeAt(index))) return undefined;
  let length = 0;
  for (let index = 0; index < separator; index++) {
    const digit = key.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9 || (index === 0 && digit === 0 && separator > 1)) return undefined;
    length = length * 10 + digit;
  }
  return length;
}
const MAX_ENCODING_LENGTH = 64;
/** UTF-8 takes at most 3 bytes per UTF-16 code unit, and a token is at least one byte. */
const MAX_TOKENS_PER_CODE_UNIT = 3;

type Memoized<T extends ExactTokenizer | ApproximateTokenizer> = T extends ExactTokenizer ? ExactTokenizer : ApproximateTokenizer;

function minLengthCheck(value: unknown): string | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? undefined : `expected a whole number of characters, 0 or more, got ${describeValue(value)}`;
}

/** What is wrong with a record, or undefined for a good one. No closures: this runs once per record a store kept. */
function checkRecord(record: unknown, index: number): SkippedTokenCount | undefined {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return { index, field: "record", reason: `expected { encoding, key, tokens }, got ${describeValue(record)}` };
  const { encoding, key, tokens } = record as Record<string, unknown>;
  if (typeof encoding !== "string" || encoding.length === 0 || encoding.length > MAX_ENCODING_LENGTH) {
    return { index, field: "encoding", reason: `expected an encoding name of 1 to ${MAX_ENCODING_LENGTH} characters, got ${describeValue(encoding)}` };
  }
  const length = typeof key === "string" ? keyTextLength(key) : undefined;
  if (length === undefined) return { index, field: "key", reason: `expected a countKey() key, got ${describeValue(key)}` };
  if (typeof tokens !== "number" || !Number.isSafeInteger(tokens) || tokens < 0) return { index, field: "tokens", reason: `expected a whole number of tokens, 0 or more, got ${describeValue(tokens)}` };
  // The key says how long the text was, which bounds what any encoding can make of it.
  const most = length * MAX_TOKENS_PER_CODE_UNIT;
  if ((length > 0 && tokens === 0) || tokens > most) return { index, field: "tokens", reason: `${tokens} tokens cannot come from a text of ${length} characters (1 to ${most})` };
  return undefined;
}

/**
 * Remembers the counts of an exact encoding by text digest, for persisting. `tokenizer` counts like the
 * tokenizer the memo was made for (an exact one, or an approximation whose base count goes through the
 * memo); a text whose count is known is not tokenized again. Give it the records a store kept with
 * add(), and persist takeNew() after builds.
 *
 * @example
 * const memo = new TokenCountMemo(createTokenizer("gpt-4o"));
 * memo.add(await store.loadTokenCounts(conversationId));
 * await pipeline.build(items, { tokenizer: memo.tokenizer });
 * await store.appendTokenCounts(conversationId, memo.takeNew());
 */
export class TokenCountMemo<T extends ExactTokenizer | ApproximateTokenizer = ExactTokenizer | ApproximateTokenizer> {
  /** Counts like the tokenizer given, through the memo. The same object for the memo's lifetime, so core's per-tokenizer caches keep hitting. */
  readonly tokenizer: Memoized<T>;
  /** The exact encoding whose counts the memo keeps, e.g. "o200k_base". */
  readonly encoding: EncodingName;
  readonly minLength: number;
  readonly #counts = new Map<string, number>();
  #pending: TokenCountRecord[] = [];

  /** @throws PluginOptionsError for a tokenizer that is not from this package, or bad options. */
  constructor(tokenizer: T, options: TokenCountMemoOptions = {}) {
    checkOptions("TokenCountMemo", options, { minLength: minLengthCheck });
    const base: ExactTokenizer | undefined = tokenizer?.exact === true ? (tokenizer as ExactTokenizer) : tokenizer?.exact === false ? tokenizer.base : undefined;
    if (base === undefined || !isEncodingName(base.name) || typeof base.count !== "function") {
      throw new PluginOptionsError(
        "TokenCountMemo",
        `✖ expected a tokenizer from getEncoding() or createTokenizer() (exact, or an approximation over an exact encoding), got ${describeValue(tokenizer)}\n  → at tokenizer`,
      );
    }
    this.encoding = base.name;
    this.minLength = options.minLength ?? DEFAULT_MEMO_MIN_LENGTH;
    const memoized = this.#memoize(base);
    const approximation = tokenizer.exact ? undefined : (tokenizer as ApproximateTokenizer);
    // Calibrating an approximation keeps its base, so every tokenizer calibrated from this one shares the memo.
    this.tokenizer = (
      approximation === undefined
        ? memoized
        : createApproximateTokenizer({ kind: approximation.kind, model: approximation.model, base: memoized, factor: approximation.factor, safetyMargin: approximation.safetyMargin })
    ) as Memoized<T>;
  }

  /** How many counts the memo knows. */
  get size(): number {
    return this.#counts.size;
  }

  /**
   * Files counts a store kept. Never throws for a record's content: records of another encoding are
   * counted apart, malformed ones skipped with the field that is wrong, and a key already known keeps
   * its first count (as the stores do).
   */
  add(records: Iterable<unknown>): TokenCountLoad {
    if (typeof (records as { [Symbol.iterator]?: unknown } | null | undefined)?.[Symbol.iterator] !== "function") {
      throw new CtxpipeError(ERROR_CODES.INPUT_INVALID, `TokenCountMemo.add(): expected an array of records, got ${describeValue(records)}`);
    }
    let added = 0;
    let known = 0;
    let otherEncoding = 0;
    const skipped: SkippedTokenCount[] = [];
    let index = 0;
    for (const record of records) {
      const problem = checkRecord(record, index++);
      if (problem !== undefined) {
        skipped.push(problem);
        continue;
      }
      const { encoding, key, tokens } = record as TokenCountRecord;
      if (encoding !== this.encoding) otherEncoding++;
      else if (this.#counts.has(key)) known++;
      else {
        this.#counts.set(key, tokens);
        added++;
      }
    }
    return { added, known, otherEncoding, skipped };
  }

  /** The counts made since the last call, each once, for the store; the memo keeps knowing them. */
  takeNew(): TokenCountRecord[] {
    const taken = this.#pending;
    this.#pending = [];
    return taken;
  }

  #memoize(base: ExactTokenizer): ExactTokenizer {
    const counts = this.#counts;
    const minLength = this.minLength;
    const encoding = this.encoding;
    return Object.freeze({
      specificationVersion: "v1",
      name: base.name,
      exact: true,
      backend: base.backend,
      count: (text: string): number => {
        // Not a string: the base throws its typed error.
        if (typeof text !== "string" || text.length < minLength) return base.count(text);
        const key = countKey(text);
        let tokens = counts.get(key);
        if (tokens === undefined) {
          tokens = base.count(text);
          counts.set(key, tokens);
          this.#pending.push({ encoding, key, tokens });
        }
        return tokens;
      },
    });
  }
}
