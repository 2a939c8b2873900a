// Cuts the middle out of a text too long for a limit, keeping its head and its tail and putting a
// marker between them that says what was cut and how to read it back. The shared primitive of the
// hard string limits, tool-result truncation and offloading.
import { PluginOptionsError } from "../errors/plugin-options-error.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import { estimatingTokenizer } from "../tokenizers/estimating-tokenizer.js";
import { contentHandle } from "./content-handle.js";
import { CUT_MIDDLE, readCutMiddleOptions } from "./cut-middle-options.js";
import { cutMarker } from "./cut-marker.js";
import type { TextCut } from "./text-cut.js";

export interface CutMiddleOptions {
  /** Keep at most this many tokens (counted with `tokenizer`), marker included. */
  readonly maxTokens?: number;
  /** And/or at most this many UTF-16 code units, marker included. */
  readonly maxChars?: number;
  /** Required with maxTokens; without one the cut's `tokens` is the chars/4 estimate. */
  readonly tokenizer?: Tokenizer;
  /** Share of the kept budget given to the head; default 0.5. */
  readonly headShare?: number;
  /**
   * What `tokenizer` counts for the whole text, when the caller has counted it already (a strategy
   * that knows its item's count): the text is then not counted again. The result is the same.
   */
  readonly textTokens?: number;
}

export interface CutMiddleResult {
  /** head + marker + tail, or the text itself when it already fits. */
  readonly text: string;
  /** undefined: the text already fits and is returned as is. */
  readonly cut: TextCut | undefined;
}

// How far a cut point may move to land on a line boundary: at most this many code units, and at most
// a quarter of the part it shortens, so a small head or tail is not emptied for a newline.
const LINE_WINDOW = 256;
// Code units either side of a cut point handed to Intl.Segmenter; a grapheme cluster longer than this
// (rare: stacked combining marks) may still be split, at a code-point boundary.
const GRAPHEME_WINDOW = 64;
// Retries when the exact count of the final text exceeds the limit (token counts are not additive, and
// the marker's numbers change with the cut). One or two suffice in practice.
const MAX_ATTEMPTS = 8;

/**
 * Keeps the head and the tail of `text` within maxTokens and/or maxChars (marker included) and puts
 * cutMarker(cut) where the middle was. Returns the text unchanged (cut undefined) when it fits.
 */
export function cutMiddle(text: string, options: CutMiddleOptions): CutMiddleResult {
  const { maxTokens, maxChars, tokenizer, headShare, textTokens } = readCutMiddleOptions(options);
  const counter = tokenizer ?? estimatingTokenizer;
  const length = text.length;

  // Does the text fit as it is? Over maxChars needs no counting; a multi-MB text far over maxTokens is
  // told by counting a prefix, not the whole (a prefix counts at most a few tokens more than it
  // contributes to the whole, far less than the margin).
  let tokensGuess = Math.ceil(length / 4);
  if (maxChars === undefined || length <= maxChars) {
    if (maxTokens === undefined) return { text, cut: undefined };
    const margin = maxTokens * 2 + 64;
    const probeLength = codePointFloor(text, margin * 8);
    const prefixTokens = probeLength * 2 < length ? counter.count(text.slice(0, probeLength)) : 0;
    if (prefixTokens > margin) {
      tokensGuess = Math.ceil((prefixTokens * length) / Math.max(1, probeLength));
    } else {
      const wholeTokens = textTokens ?? counter.count(text);
      if (wholeTokens <= maxTokens) return { text, cut: undefined };
      tokensGuess = wholeTokens;
    }
  } else if (tokenizer !== undefined) {
    const probeLength = codePointFloor(text, 65_536);
    const probeTokens = probeLength === length && textTokens !== undefined ? textTokens : counter.count(text.slice(0, probeLength));
    tokensGuess = Math.ceil((probeTokens * length) / Math.max(1, probeLength));
  }

  const handle = contentHandle(text);
  const segmenter = graphemeSegmenter();
  const layout = (kept: number): { from: number; to: number } => {
    const headLength = Math.floor(kept * headShare);
    const tailLength = kept - headLength;
    return {
      from: snapHeadEnd(text, headLength, segmenter),
      to: snapTailStart(text, length - tailLength, segmenter),
    };
  };
  const assemble = (from: number, to: number, tokens: number): { text: string; cut: TextCut } => {
    const cut: TextCut = { handle, from, to, chars: to - from, tokens };
    return { text: text.slice(0, from) + cutMarker(cut) + text.slice(to), cut };
  };

  let tokenTarget = maxTokens;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    // The longest marker this text can get with the current guess of the cut's tokens.
    const markerBound = cutMarker({ handle, from: length, to: length, chars: length, tokens: tokensGuess }).length;
    let kept = length - 1;
    if (maxChars !== undefined) {
      if (maxChars < markerBound) throw tooSmall("maxChars", `${maxChars} cannot hold the marker (${markerBound} characters for this text)`);
      kept = Math.min(kept, maxChars - markerBound);
    }
    if (tokenTarget !== undefined) {
      const target = tokenTarget;
      const guess = tokensGuess;
      const fitsAt = (candidate: number): boolean => {
        const { from, to } = layout(candidate);
        return counter.count(assemble(from, to, guess).text) <= target;
      };
      if (!fitsAt(0)) {
        const { from, to } = layout(0);
        throw tooSmall("maxTokens", `${maxTokens} cannot hold the marker (${counter.count(assemble(from, to, guess).text)} tokens for this text)`);
      }
      kept = largestFitting(kept, Math.max(64, target * 4), fitsAt);
    }
    const { from, to } = layout(kept);
    const tokens = counter.count(text.slice(from, to));
    const result = assemble(from, to, tokens);
    const charsOver = maxChars === undefined ? 0 : result.text.length - maxChars;
    const tokensOver = maxTokens === undefined ? 0 : counter.count(result.text) - maxTokens;
    if (charsOver <= 0 && tokensOver <= 0) return result;
    tokensGuess = Math.max(tokensGuess, tokens) * (charsOver > 0 ? 10 : 1);
    if (tokenTarget !== undefined && tokensOver > 0) tokenTarget -= tokensOver;
  }
  // Not reached with a tokenizer whose counts grow with the text; keep only the marker rather than loop.
  const { from, to } = layout(0);
  const result = assemble(from, to, counter.count(text.slice(from, to)));
  if ((maxChars === undefined || result.text.length <= maxChars) && (maxTokens === undefined || counter.count(result.text) <= maxTokens)) return result;
  throw tooSmall(maxTokens === undefined ? "maxChars" : "maxTokens", "cannot hold the marker for this text");
}

// The largest kept length in [0, upper] that fits, knowing 0 fits: doubling from `start` (so a
// multi-MB text is never counted whole while searching), then bisecting.
function largestFitting(upper: number, start: number, fitsAt: (kept: number) => boolean): number {
  let low = 0;
  let probe = Math.min(upper, start);
  let high = upper + 1;
  while (probe > low) {
    if (!fitsAt(probe)) {
      high = probe;
      break;
    }
    low = probe;
    if (probe === upper) return upper;
    probe = Math.min(upper, probe * 2);
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fitsAt(middle)) low = middle;
    else high = middle;
  }
  return low;
}

function tooSmall(field: "maxChars" | "maxTokens", details: string): Error {
  return new PluginOptionsError(CUT_MIDDLE, `✖ ${details}\n  → at ${field}`);
}

// The end of the head: moved back, never forward, to a code-point, grapheme and (if near) line boundary.
function snapHeadEnd(text: string, position: number, segmenter: GraphemeSegmenter | undefined): number {
  if (position <= 0 || position >= text.length) return position;
  let end = codePointFloor(text, position);
  if (segmenter !== undefined) {
    const start = codePointFloor(text, Math.max(0, end - GRAPHEME_WINDOW));
    const window = text.slice(start, codePointFloor(text, Math.min(text.length, end + GRAPHEME_WINDOW)));
    const segment = segmenter.segment(window).containing(end - start);
    if (segment !== undefined && start + segment.index < end) end = start + segment.index;
  }
  const reach = Math.min(LINE_WINDOW, Math.floor(end / 4));
  const newline = text.slice(end - reach, end).lastIndexOf("\n");
  if (newline >= 0) end = end - reach + newline + 1;
  return end;
}

// The start of the tail: moved forward, never back, to a code-point, grapheme and (if near) line boundary.
function snapTailStart(text: string, position: number, segmenter: GraphemeSegmenter | undefined): number {
  if (position <= 0 || position >= text.length) return position;
  let start = codePointCeil(text, position);
  if (segmenter !== undefined && start < text.length) {
    const windowStart = codePointFloor(text, Math.max(0, start - GRAPHEME_WINDOW));
    const window = text.slice(windowStart, codePointCeil(text, Math.min(text.length, start + GRAPHEME_WINDOW)));
    const segment = segmenter.segment(window).containing(start - windowStart);
    if (segment !== undefined && windowStart + segment.index < start) start = windowStart + segment.index + segment.segment.length;
  }
  if (start > 0 && text.charCodeAt(start - 1) === 0x0a) return start;
  const reach = Math.min(LINE_WINDOW, Math.floor((text.length - start) / 4));
  const newline = text.slice(start, start + reach).indexOf("\n");
  if (newline >= 0) start = start + newline + 1;
  return start;
}

// The largest code-point boundary ≤ position (never between the halves of a surrogate pair).
function codePointFloor(text: string, position: number): number {
  if (position <= 0) return 0;
  if (position >= text.length) return text.length;
  return isLowSurrogate(text.charCodeAt(position)) && isHighSurrogate(text.charCodeAt(position - 1)) ? position - 1 : position;
}

// The smallest code-point boundary ≥ position.
function codePointCeil(text: string, position: number): number {
  if (position <= 0) return 0;
  if (position >= text.length) return text.length;
  return isLowSurrogate(text.charCodeAt(position)) && isHighSurrogate(text.charCodeAt(position - 1)) ? position + 1 : position;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

interface GraphemeSegmenter {
  segment(text: string): { containing(index: number): { index: number; segment: string } | undefined };
}

let cachedSegmenter: GraphemeSegmenter | undefined | null = null;

// Intl.Segmenter where the runtime has it (Node ≥ 16, current browsers); code points only elsewhere.
// A fixed locale: grapheme rules do not depend on it, and the cut must not depend on the machine.
function graphemeSegmenter(): GraphemeSegmenter | undefined {
  if (cachedSegmenter === null) {
    const Segmenter = (globalThis.Intl as { Segmenter?: new (locale: string, options: { granularity: "grapheme" }) => GraphemeSegmenter } | undefined)
      ?.Segmenter;
    cachedSegmenter = Segmenter === undefined ? undefined : new Segmenter("en", { granularity: "grapheme" });
  }
  return cachedSegmenter;
}
