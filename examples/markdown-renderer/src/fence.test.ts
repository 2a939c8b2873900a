import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { fence } from "./fence.js";

describe("fence", () => {
  test("no text can close its fence early, and the text comes back whole", () => {
    const text = fc.string({ unit: fc.constantFrom("`", "``", "```", "a", "\n", " ", "~") });
    fc.assert(
      fc.property(text, (inside) => {
        const fenced = fence(inside, "json");
        const marker = /^`+/.exec(fenced)![0];
        // CommonMark: a closing fence is a line of at least as many backticks as the opening one.
        const lines = fenced.split("\n").slice(1, -1);
        expect(lines.some((line) => line.trimStart().startsWith(marker))).toBe(false);
        expect(lines.join("\n")).toBe(inside);
      }),
    );
  });

  test("uses three backticks when the text has fewer in a row", () => {
    expect(fence('{"a":1}', "json")).toBe('```json\n{"a":1}\n```');
    expect(fence("a ``` b")).toBe("````\na ``` b\n````");
  });
});
