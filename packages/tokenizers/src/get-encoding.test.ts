import { CtxpipeError, ERROR_CODES, PluginOptionsError } from "@ctxpipe/core";
import { afterAll, describe, expect, test } from "vitest";
import { MIXED_CORPUS } from "./__fixtures__/mixed-corpus.js";
import { openReferenceTokenizers } from "./__fixtures__/reference-tokenizer.js";
import { TOKENIZER_BACKENDS } from "./backends/tokenizer-backend.js";
import { ENCODING_NAMES } from "./encodings/encoding-name.js";
import { getEncoding } from "./get-encoding.js";

const reference = openReferenceTokenizers();
afterAll(() => reference.free());

const combinations = ENCODING_NAMES.flatMap((encoding) => TOKENIZER_BACKENDS.map((backend) => [encoding, backend] as const));

describe.for(combinations)("%s counted by %s", ([encoding, backend]) => {
  const tokenizer = getEncoding(encoding, { backend });

  test.for(MIXED_CORPUS.map((sample) => [sample.name, sample.text] as const))("equals tiktoken's count: %s", ([, text]) => {
    expect(tokenizer.count(text)).toBe(reference.count(encoding, text));
  });

  test("counts the whole corpus as one text exactly too", () => {
    const text = MIXED_CORPUS.map((sample) => sample.text).join("\n");
    expect(tokenizer.count(text)).toBe(reference.count(encoding, text));
  });

  test.for(["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|endofprompt|>", "<|fim_prefix|>"])("counts %s as plain text", (special) => {
    // As a special token it would be one token; as text it is several, and it never throws.
    expect(tokenizer.count(special)).toBe(reference.count(encoding, special));
    expect(tokenizer.count(special)).toBeGreaterThan(1);
  });

  test("counts an empty string as 0", () => {
    expect(tokenizer.count("")).toBe(0);
  });

  test("describes itself", () => {
    expect({ ...tokenizer, count: undefined }).toEqual({ specificationVersion: "v1", name: encoding, exact: true, backend, count: undefined });
    expect(Object.isFrozen(tokenizer)).toBe(true);
  });

  test("counts the same after being detached from its object", () => {
    const { count } = tokenizer;
    expect(count("detached count")).toBe(reference.count(encoding, "detached count"));
  });
});

describe("getEncoding", () => {
  test("returns one tokenizer per encoding and backend", () => {
    expect(getEncoding("o200k_base")).toBe(getEncoding("o200k_base", { backend: "gpt-tokenizer" }));
    expect(getEncoding("o200k_base", { backend: "js-tiktoken" })).toBe(getEncoding("o200k_base", { backend: "js-tiktoken" }));
    expect(getEncoding("o200k_base")).not.toBe(getEncoding("o200k_base", { backend: "js-tiktoken" }));
    expect(getEncoding("o200k_base")).not.toBe(getEncoding("cl100k_base"));
  });

  test("defaults to the gpt-tokenizer backend", () => {
    expect(getEncoding("cl100k_base").backend).toBe("gpt-tokenizer");
  });

  test("rejects an unknown encoding, naming the ones it has", () => {
    // @ts-expect-error: p50k_base is not offered
    expect(() => getEncoding("p50k_base")).toThrow(PluginOptionsError);
    // @ts-expect-error: same
    expect(() => getEncoding("p50k_base")).toThrowErrorMatchingInlineSnapshot(`
      [PluginOptionsError: Invalid options for getEncoding():
      ✖ expected one of "o200k_base" | "cl100k_base", got "p50k_base"
        → at encoding]
    `);
  });

  test("rejects an unknown backend and unknown options", () => {
    // @ts-expect-error: not a backend
    expect(() => getEncoding("o200k_base", { backend: "tiktoken", speed: "fast" })).toThrowErrorMatchingInlineSnapshot(`
      [PluginOptionsError: Invalid options for getEncoding():
      ✖ expected one of "gpt-tokenizer" | "js-tiktoken", got "tiktoken"
        → at backend
      ✖ Unrecognized key: "speed" (known: backend)]
    `);
  });

  test("count() refuses what is not a string with a typed error", () => {
    const count = getEncoding("o200k_base").count as (text: unknown) => number;
    let caught: unknown;
    try {
      count(undefined);
    } catch (error) {
      caught = error;
    }
    expect(CtxpipeError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ code: ERROR_CODES.INPUT_INVALID, message: "o200k_base tokenizer: count() takes a string, got undefined" });
  });
});
