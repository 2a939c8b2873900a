import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item, ItemInput } from "./item.js";
import { orderItems } from "./order-items.js";
import { parseItems } from "./parse-items.js";

const at = (id: string, createdAt?: string): ItemInput => ({ id, type: "user", text: id, ...(createdAt === undefined ? {} : { createdAt }) });
const ids = (items: ReadonlyArray<Item>) => items.map((item) => item.id);

describe("orderItems", () => {
  test.for([
    { case: "already in order", input: [at("a", "2026-01-01T00:00:00Z"), at("b", "2026-01-01T00:00:01Z")], expected: ["a", "b"] },
    { case: "out of order", input: [at("b", "2026-01-01T00:00:01Z"), at("a", "2026-01-01T00:00:00Z")], expected: ["a", "b"] },
    { case: "ties keep input order", input: [at("x", "2026-01-01T00:00:00Z"), at("y", "2026-01-01T00:00:00Z"), at("w", "2025-12-31T00:00:00Z")], expected: ["w", "x", "y"] },
    { case: "items without a date keep their position", input: [at("c", "2026-01-03T00:00:00Z"), at("n"), at("a", "2026-01-01T00:00:00Z")], expected: ["a", "n", "c"] },
    { case: "items whose date is not a date keep their position", input: [at("c", "2026-01-03T00:00:00Z"), at("bad", "yesterday"), at("empty", ""), at("a", "2026-01-01T00:00:00Z")], expected: ["a", "bad", "empty", "c"] },
    { case: "different offsets compare as instants", input: [at("later", "2026-01-01T10:00:00+02:00"), at("earlier", "2026-01-01T09:00:00Z")], expected: ["later", "earlier"] },
    // Read as local time this would depend on the machine's time zone; ctxpipe reads it as UTC.
    { case: "a date-time without an offset is UTC", input: [at("ten", "2026-01-01T10:00:00"), at("half-nine", "2026-01-01T09:30:00Z")], expected: ["half-nine", "ten"] },
  ])("$case", ({ input, expected }) => {
    expect(ids(orderItems(parseItems(input)))).toEqual(expected);
  });

  test("undated items never move and dated items come out sorted (property)", () => {
    // A day, no date, or a createdAt that names no instant: the last two keep their position alike.
    const dated = fc.option(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom("yesterday", "")), { nil: undefined });
    fc.assert(
      fc.property(fc.array(dated, { maxLength: 30 }), (days) => {
        const input = days.map((day, index) => at(`i${index}`, day === undefined ? undefined : typeof day === "string" ? day : new Date(Date.UTC(2026, 0, 1 + day)).toISOString()));
        const ordered = orderItems(parseItems(input));
        days.forEach((day, index) => {
          if (typeof day !== "number") expect(ordered[index]!.id).toBe(`i${index}`);
        });
        const times = ordered.map((item) => Date.parse(item.createdAt ?? "")).filter((time) => !Number.isNaN(time));
        expect(times).toEqual([...times].sort((left, right) => left - right));
        expect(ordered).toHaveLength(input.length);
      }),
    );
  });
});
