import { expect, test } from "vitest";
import { ModelError } from "../model/model-error.js";
import { retryDelay } from "./retry-delay.js";

const busy = new ModelError("LLM_HTTP_ERROR", "busy", { model: "m", status: 503, retryable: true });
const asking = (retryAfterMs: number) => new ModelError("LLM_HTTP_ERROR", "slow down", { model: "m", status: 429, retryable: true, retryAfterMs });
const timing = (random: number) => ({ maxDelayMs: 10_000, sleep: async () => undefined, random: () => random });

test.for([
  { name: "first retry, no jitter", error: busy, retry: 1, random: 0, expected: 1000 },
  { name: "doubling", error: busy, retry: 2, random: 0, expected: 2000 },
  { name: "doubling again", error: busy, retry: 3, random: 0, expected: 4000 },
  { name: "jitter takes off up to a quarter", error: busy, retry: 3, random: 0.999, expected: 3001 },
  { name: "capped", error: busy, retry: 6, random: 0, expected: 10_000 },
  { name: "capped, with jitter", error: busy, retry: 6, random: 0.5, expected: 8750 },
  { name: "Retry-After replaces the backoff, without jitter", error: asking(7000), retry: 1, random: 0.5, expected: 7000 },
  { name: "Retry-After at the cap", error: asking(10_000), retry: 1, random: 0, expected: 10_000 },
  { name: "Retry-After of 0", error: asking(0), retry: 2, random: 0, expected: 0 },
  { name: "Retry-After beyond the cap: no retry now", error: asking(10_001), retry: 1, random: 0, expected: undefined },
])("$name", ({ error, retry, random, expected }) => {
  expect(retryDelay(error, retry, 1000, timing(random))).toBe(expected);
});
