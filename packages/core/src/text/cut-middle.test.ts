import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PluginOptionsError } from "../errors/plugin-options-error.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import { contentHandle } from "./content-handle.js";
import { cutMarker } from "./cut-marker.js";
import { cutMiddle } from "./cut-middle.js";

// Counts like a BPE tokenizer where it matters here: not additive (two halves of a word count more
// than the word), about 4 characters a token, whitespace runs and symbols on their own.
function wordTokenizer(): Tokenizer & { charsCounted: number } {
  const tokenizer = {
    specificationVersion: "v1" as const,
    name: "words",
    exact: true,
    charsCounted: 0,
    count(text: string): number {
      tokenizer.charsCounted += text.length;
      let tokens = 0;
      for (const match of text.matchAll(/[\p{L}\p{N}]+|\s+|[^\p{L}\p{N}\s]/gu)) tokens += /[\p{L}\p{N}]/u.test(match[0]) ? Math.ceil(match[0].length / 4) : 1;
      return tokens;
    },
  };
  return tokenizer;
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });
function graphemeBoundaries(text: string): Set<number> {
  const boundaries = new Set<number>([text.length]);
  for (const segment of graphemes.segment(text)) boundaries.add(segment.index);
  return boundaries;
}

describe("contentHandle", () => {
  test.for([
    ["", "ctx_cbf29ce484222325"],
    ["a", "ctx_af63dc4c8601ec8c"],
    ["foobar", "ctx_85944171f73967e8"],
  ] as const)("%j → %s (FNV-1a 64, the published test vectors for ASCII)", ([text, handle]) => {
    expect(contentHandle(text)).toBe(handle);
  });

  test("same text, same handle; one code unit changed, another handle", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(), (text, at) => {
        expect(contentHandle(text)).toBe(contentHandle(`${text}`));
        expect(contentHandle(text)).toMatch(/^ctx_[0-9a-f]{16}$/);
        if (text.length === 0) return;
        const index = at % text.length;
        const changed = text.slice(0, index) + String.fromCharCode(text.charCodeAt(index) ^ 1) + text.slice(index + 1);
        expect(contentHandle(changed)).not.toBe(contentHandle(text));
      }),
    );
  });
});

describe("cutMarker", () => {
  test("says how many tokens and characters were cut and how to read them back, with fixed digit grouping", () => {
    expect(cutMarker({ handle: "ctx_0123456789abcdef", from: 4096, to: 571_986, chars: 567_890, tokens: 123_456 })).toBe(
      '[… 123,456 tokens (567,890 characters) cut here. The whole text is kept as ctx_0123456789abcdef: call retrieve_context with {"handle":"ctx_0123456789abcdef","from":4096,"to":571986} to read them.]',
    );
    expect(cutMarker({ handle: "ctx_0123456789abcdef", from: 1, to: 2, chars: 1, tokens: 1 })).toBe(
      '[… 1 token (1 character) cut here. The whole text is kept as ctx_0123456789abcdef: call retrieve_context with {"handle":"ctx_0123456789abcdef","from":1,"to":2} to read them.]',
    );
  });
});

describe("cutMiddle", () => {
  test("a text that fits is returned as is", () => {
    const tokenizer = wordTokenizer();
    expect(cutMiddle("short text", { maxChars: 10 })).toEqual({ text: "short text", cut: undefined });
    expect(cutMiddle("short text", { maxTokens: 4, tokenizer })).toEqual({ text: "short text", cut: undefined });
  });

  test("keeps the head and the tail around the marker, within maxChars, cutting after a newline when one is near", () => {
    const lines = Array.from({ length: 400 }, (_, index) => `line ${String(index).padStart(3, "0")}`).join("\n");
    const result = cutMiddle(lines, { maxChars: 600 });
    const cut = { handle: contentHandle(lines), from: 198, to: 3393, chars: 3195, tokens: 799 };
    expect(result).toEqual({ text: lines.slice(0, 198) + cutMarker(cut) + lines.slice(3393), cut });
    expect(lines.slice(0, 198).endsWith("line 021\n")).toBe(true);
    expect(lines.slice(3393).startsWith("line 377\n")).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(600);
  });

  test("headShare gives the head its share of what is kept", () => {
    const text = "x".repeat(10_000);
    const { cut } = cutMiddle(text, { maxChars: 1000, headShare: 0.25 });
    const marker = cutMarker(cut!).length;
    expect(cut!.from).toBe(Math.floor((1000 - markerBoundOf(text)) * 0.25));
    expect(cut!.from + marker + (text.length - cut!.to)).toBeLessThanOrEqual(1000);
    expect(cutMiddle(text, { maxChars: 1000, headShare: 0 }).cut!.from).toBe(0);
    expect(cutMiddle(text, { maxChars: 1000, headShare: 1 }).cut!.to).toBe(text.length);
  });

  test("never splits a surrogate pair or an emoji sequence", () => {
    const family = "👨‍👩‍👧‍👦";
    const text = `${family.repeat(300)}e\u0301${"🎉".repeat(300)}`;
    for (let maxChars = 250; maxChars < 400; maxChars++) {
      const { text: cutText, cut } = cutMiddle(text, { maxChars });
      expect(cutText.isWellFormed()).toBe(true);
      expect(graphemeBoundaries(text).has(cut!.from) && graphemeBoundaries(text).has(cut!.to)).toBe(true);
      expect(cutText.length).toBeLessThanOrEqual(maxChars);
    }
  });

  test("a 10 MB text is cut to maxTokens counting little more than the kept part and the cut range once", () => {
    const tokenizer = wordTokenizer();
    const text = Array.from({ length: 200_000 }, (_, index) => `${index} GET /api/items?page=${index} 200 OK\n`).join("");
    expect(text.length).toBeGreaterThan(7_000_000);
    const result = cutMiddle(text, { maxTokens: 4000, tokenizer });
    const counted = tokenizer.charsCounted;
    tokenizer.charsCounted = 0;
    expect(tokenizer.count(result.text)).toBeLessThanOrEqual(4000);
    expect(tokenizer.count(result.text)).toBeGreaterThan(3900);
    expect(result.cut!.tokens).toBe(tokenizer.count(text.slice(result.cut!.from, result.cut!.to)));
    expect(counted).toBeLessThan(text.length * 1.1);
  });

  test.for([
    [{}, "maxTokens", "give maxTokens, maxChars or both"],
    [{ maxTokens: 10 }, "tokenizer", "maxTokens needs a tokenizer to count with"],
    [{ maxChars: -1 }, "maxChars", "Too small: expected number to be >=0"],
    [{ maxChars: 100, headShare: 2 }, "headShare", "Too big: expected number to be <=1"],
    [{ maxChars: 20 }, "maxChars", "20 cannot hold the marker (188 characters for this text)"],
  ] as const)("%j is refused naming %s", ([options, field, message]) => {
    const error = captureError(() => cutMiddle("y".repeat(1000), options));
    expect(error).toBeInstanceOf(PluginOptionsError);
    expect({ plugin: (error as PluginOptionsError).plugin, message: (error as Error).message }).toEqual({
      plugin: "cutMiddle",
      message: `Invalid options for cutMiddle:\n✖ ${message}\n  → at ${field}`,
    });
  });

  const texts = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 2000, size: "max" }),
    fc.array(fc.string({ unit: "grapheme", maxLength: 60, size: "max" }), { maxLength: 80, size: "max" }).map((lines) => lines.join("\n")),
    fc.string({ unit: fc.constantFrom("a", " ", "\n", "é", "👍🏽", "🇫🇷", "x\u0301", "word "), maxLength: 3000, size: "max" }),
  );
  const limits = fc.record(
    {
      maxChars: fc.integer({ min: 200, max: 2000 }),
      maxTokens: fc.integer({ min: 120, max: 500 }),
      headShare: fc.double({ min: 0, max: 1, noNaN: true }),
    },
    { requiredKeys: ["headShare"] },
  );

  let cuts = 0;
  test("property: within the limits; head a prefix, tail a suffix; original = head + cut range + tail; well-formed; deterministic", () => {
    fc.assert(
      fc.property(texts, limits, (text, limit) => {
        fc.pre(limit.maxChars !== undefined || limit.maxTokens !== undefined);
        const tokenizer = wordTokenizer();
        const options = { ...limit, tokenizer };
        const result = cutMiddle(text, options);
        expect(cutMiddle(text, { ...limit, tokenizer: wordTokenizer() })).toEqual(result);
        if (limit.maxChars !== undefined) expect(result.text.length).toBeLessThanOrEqual(limit.maxChars);
        if (limit.maxTokens !== undefined) expect(tokenizer.count(result.text)).toBeLessThanOrEqual(limit.maxTokens);
        expect(result.text.isWellFormed()).toBe(true);
        const { cut } = result;
        if (cut === undefined) {
          expect(result.text).toBe(text);
          return;
        }
        const head = text.slice(0, cut.from);
        const tail = text.slice(cut.to);
        expect(result.text).toBe(head + cutMarker(cut) + tail);
        expect(head + text.slice(cut.from, cut.to) + tail).toBe(text);
        expect(cut).toEqual({ handle: contentHandle(text), from: cut.from, to: cut.to, chars: cut.to - cut.from, tokens: tokenizer.count(text.slice(cut.from, cut.to)) });
        expect(cut.chars).toBeGreaterThan(0);
        const boundaries = graphemeBoundaries(text);
        expect(boundaries.has(cut.from) && boundaries.has(cut.to)).toBe(true);
        cuts++;
      }),
      { numRuns: 300 },
    );
    // Most generated texts are over the limits: the property is about cuts, not the texts left alone.
    expect(cuts).toBeGreaterThan(100);
  });

  test("property: given the whole text's count (textTokens), the result is the same and the whole text is never counted", () => {
    fc.assert(
      fc.property(texts, limits, (text, limit) => {
        fc.pre(limit.maxTokens !== undefined);
        const expected = cutMiddle(text, { ...limit, tokenizer: wordTokenizer() });
        const textTokens = wordTokenizer().count(text);
        const counted: string[] = [];
        const counting = wordTokenizer();
        const spy: Tokenizer = {
          ...counting,
          count: (piece: string) => {
            counted.push(piece);
            return counting.count(piece);
          },
        };
        expect(cutMiddle(text, { ...limit, tokenizer: spy, textTokens })).toStrictEqual(expected);
        expect(counted.filter((piece) => piece === text && piece.length > 0)).toStrictEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

function markerBoundOf(text: string): number {
  return cutMarker({ handle: contentHandle(text), from: text.length, to: text.length, chars: text.length, tokens: Math.ceil(text.length / 4) }).length;
}

function captureError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}
