import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { fillByReplacing, placeholderFiller } from "./placeholder-filler.js";

// Pieces that make names, near-names and replacement patterns, so templates and values can form a name
// across a boundary ("{" + "ha" + "ndle}") or hold "$&".
const fragment = fc.constantFrom("{", "}", "{tokens}", "{tool}", "{handle}", "tokens", "tool", "handle", "ha", "ndle}", "{to", "ol}", "$", "$&", "$`", "a", " ", "é", "\uD83D");
const text = (maxLength: number) => fc.array(fragment, { maxLength }).map((parts) => parts.join(""));
const tokens = fc.oneof(fc.nat(), fc.integer({ min: -5, max: -1 }), fc.constantFrom(0.5, 1e21, Number.NaN));

describe("placeholderFiller", () => {
  test("fills the default template as replaceAll does", () => {
    const template = '[Tool result cleared to save context ({tokens} tokens). It is kept whole as {handle}: call retrieve_context with {"handle":"{handle}"} to read it, or call {tool} again.]';
    const fill = placeholderFiller(template);
    expect(fill(1234, "read_file", "ctx_0123456789abcdef")).toBe(
      '[Tool result cleared to save context (1234 tokens). It is kept whole as ctx_0123456789abcdef: call retrieve_context with {"handle":"ctx_0123456789abcdef"} to read it, or call read_file again.]',
    );
  });

  test.for([
    ["{{tool}ndle}", "ha", "a name and the text around it make {handle}"],
    ["{{tool}}", "handle", "a name in braces"],
    ["{tool} {handle}", "$&", "a replacement pattern in the name"],
    ["{tool}", "{handle}", "a name that reads as a name"],
  ])("%s with the tool %j (%s) is what replaceAll gives", ([template, tool]) => {
    expect(placeholderFiller(template!)(7, tool!, "ctx_1")).toBe(fillByReplacing(template!, 7, tool!, "ctx_1"));
  });

  test("any template, count, tool name and handle, asked in any order, give what replaceAll gives", () => {
    fc.assert(
      fc.property(text(12), fc.array(fc.tuple(tokens, text(4), fc.oneof(fc.constant(""), text(3), fc.stringMatching(/^[0-9a-f]{16}$/).map((hex) => `ctx_${hex}`))), { minLength: 1, maxLength: 8 }), (template, uses) => {
        const fill = placeholderFiller(template);
        for (const [count, tool, handle] of uses) expect(fill(count, tool, handle)).toBe(fillByReplacing(template, count, tool, handle));
      }),
      { numRuns: 500 },
    );
  });

  test("past the tool names it keeps, a name is still filled right", () => {
    const fill = placeholderFiller("{tool}:{tokens}:{handle}");
    for (let index = 0; index < 100; index++) expect(fill(index, `tool_${index}`, "ctx_2")).toBe(`tool_${index}:${index}:ctx_2`);
  });
});
