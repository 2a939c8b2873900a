import { expect, test } from "vitest";
import { readRetryAfter } from "./read-retry-after.js";

const NOW = Date.parse("2026-01-01T00:00:00.000Z");

test.for([
  { name: "seconds", headers: { "retry-after": "7" }, expected: 7000 },
  { name: "fractional seconds, rounded up to the millisecond", headers: { "retry-after": "0.0015" }, expected: 2 },
  { name: "zero", headers: { "retry-after": "0" }, expected: 0 },
  { name: "an HTTP date", headers: { "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }, expected: 30_000 },
  { name: "an HTTP date already past", headers: { "retry-after": "Wed, 31 Dec 2025 23:59:00 GMT" }, expected: 0 },
  { name: "retry-after-ms wins over retry-after", headers: { "retry-after-ms": "250", "retry-after": "9" }, expected: 250 },
  { name: "an unreadable retry-after-ms falls back to retry-after", headers: { "retry-after-ms": "soon", "retry-after": "2" }, expected: 2000 },
  { name: "no header", headers: {}, expected: undefined },
  { name: "blank", headers: { "retry-after": " " }, expected: undefined },
  { name: "neither seconds nor a date", headers: { "retry-after": "later, please" }, expected: undefined },
  { name: "a negative number is not seconds", headers: { "retry-after": "-5" }, expected: undefined },
])("$name", ({ headers, expected }) => {
  expect(readRetryAfter(new Headers(headers), NOW)).toBe(expected);
});
