import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { renderJsonHtml } from "./render-json-html.js";

const ENTITIES: Readonly<Record<string, string>> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
/** What a browser shows of the HTML: the text without tags, entities decoded. */
const textOf = (html: string) => html.replace(/<[^>]*>/g, "").replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);

describe("renderJsonHtml", () => {
  test("shows short values exactly as JSON.stringify(value, null, 2) writes them (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const tally = { shortened: 0 };
        expect(textOf(renderJsonHtml(value, "", tally))).toBe(JSON.stringify(value, null, 2));
        expect(tally.shortened).toBe(0);
      }),
    );
  });

  test("counts the strings it shortens", () => {
    const tally = { shortened: 0 };
    const text = textOf(renderJsonHtml({ a: "x".repeat(2001), b: ["y".repeat(2000), "z".repeat(3000)] }, "", tally));
    expect(tally.shortened).toBe(2);
    expect(text).toContain(`"${"x".repeat(2000)}… 1 more characters"`);
    expect(text).toContain(`"${"y".repeat(2000)}"`);
  });
});
