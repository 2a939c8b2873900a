// The public shape of fitPromptCacheKey, as @ctxpipe/core exports it.
import { fitPromptCacheKey, MAX_PROMPT_CACHE_KEY_LENGTH } from "@ctxpipe/core";
import { describe, expectTypeOf, test } from "vitest";

describe("fitPromptCacheKey", () => {
  test("takes a key and gives the key to send", () => {
    expectTypeOf(fitPromptCacheKey).toEqualTypeOf<(key: string) => string>();
    expectTypeOf(MAX_PROMPT_CACHE_KEY_LENGTH).toEqualTypeOf<number>();
    // @ts-expect-error a key is a string
    fitPromptCacheKey(42);
  });
});
