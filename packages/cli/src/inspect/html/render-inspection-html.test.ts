import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Inspection } from "../inspection.js";
import { SMALL_INSPECTION } from "./__fixtures__/small-inspection.js";
import { renderInspectionHtml } from "./render-inspection-html.js";

const EVIL = `</script><script>alert(1)</script>"'&<>`;
const EVIL_ESCAPED = "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;&lt;&gt;";

/** The inspection with attacker-chosen text in every field that comes from the conversation or a plugin. */
function evilInspection(text: string): Inspection {
  return {
    ...SMALL_INSPECTION,
    title: text,
    model: text,
    timeline: SMALL_INSPECTION.timeline.map((row) => ({
      ...row,
      id: `${row.id}${text}`,
      location: row.location === undefined ? undefined : `${row.location}${text}`,
      reason: text,
      plugin: text,
      preview: text,
      relatedId: row.relatedId === undefined ? undefined : `${row.relatedId}${text}`,
      history: row.history.map((event) => ({ ...event, reason: text, plugin: text })),
    })),
    summaries: SMALL_INSPECTION.summaries.map((summary) => ({ ...summary, id: `${summary.id}${text}`, text, coveredIds: summary.coveredIds.map((id) => `${id}${text}`) })),
    systemParts: [{ id: text, addedBy: text, tokens: 1 }],
    request: { model: text, messages: [{ role: "user", content: text }], [text]: text },
    cache: { compared: false, breaksAt: undefined, sameMessages: 0, previousMessages: 0, note: text },
    warnings: [text],
    violations: [text],
  };
}

/** The markup of the page, with every text and attribute value taken out. */
const tagsOf = (html: string) => html.match(/<\/?[a-z][^>]*>/gi) ?? [];

describe("renderInspectionHtml", () => {
  test("text from the data cannot add markup: </script>, quotes, & and < are escaped everywhere", () => {
    const html = renderInspectionHtml(evilInspection(EVIL));
    expect(html.toLowerCase()).not.toContain("<script");
    expect(html.toLowerCase()).not.toContain("</script");
    expect(html).not.toContain("alert(1)</");
    expect(html).toContain(EVIL_ESCAPED);
    // In attributes too: the row's data-id keeps the quotes inside the value.
    expect(html).toContain(`data-id="m1${EVIL_ESCAPED}"`);
    // In the JSON of the request the string is JSON-escaped, then HTML-escaped.
    expect(html).toContain("&quot;&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;\\&quot;&#39;&amp;&lt;&gt;&quot;");
    // The same tags as a page of harmless text: nothing was injected.
    expect(tagsOf(html).map((tag) => tag.replace(/"[^"]*"/g, '""'))).toEqual(tagsOf(renderInspectionHtml(evilInspection("x"))).map((tag) => tag.replace(/"[^"]*"/g, '""')));
  });

  test("any text in the data leaves the markup unchanged (property)", () => {
    const plain = tagsOf(renderInspectionHtml(evilInspection("x"))).map((tag) => tag.replace(/"[^"]*"/g, '""'));
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("<", ">", "&", '"', "'", "/", "s", "c", "r", "i", "p", "t", " ", "=", "\n", "é", "😀") }), (text) => {
        const html = renderInspectionHtml(evilInspection(`x${text}`));
        expect(tagsOf(html).map((tag) => tag.replace(/"[^"]*"/g, '""'))).toEqual(plain);
      }),
      { numRuns: 60 },
    );
  });

  test("is deterministic: the same inspection gives the same bytes, also from a copy", () => {
    const first = renderInspectionHtml(SMALL_INSPECTION);
    expect(renderInspectionHtml(SMALL_INSPECTION)).toBe(first);
    expect(renderInspectionHtml(structuredClone(SMALL_INSPECTION))).toBe(first);
    expect(renderInspectionHtml(JSON.parse(JSON.stringify(SMALL_INSPECTION)) as Inspection)).toBe(first);
  });

  test("is self-contained: no script, no external resource, and a CSP that forbids fetching and allows only its own style", () => {
    const html = renderInspectionHtml(SMALL_INSPECTION);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|url\(|@import|https?:/i);
    const style = html.match(/<style>([\s\S]*)<\/style>/)?.[1];
    expect(style).toBeDefined();
    const hash = createHash("sha256").update(style!, "utf8").digest("base64");
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'">`);
    expect(html).not.toMatch(/\sstyle="/);
  });

  test("shows every timeline row in order, with its figures", () => {
    const html = renderInspectionHtml(SMALL_INSPECTION);
    const ids = [...html.matchAll(/<tr id="row-(\d+)" class="row[^"]*" data-id="([^"]*)" data-decision="([a-z]+)" data-tokens="(\d+)">/g)];
    expect(ids.map((match) => [Number(match[1]), match[2], match[3], Number(match[4])])).toEqual(SMALL_INSPECTION.timeline.map((row, index) => [index, row.id, row.decision, row.tokens]));
    expect(html).toContain('<tr id="row-0" class="row synthesized"');
    expect(html).toContain('<tr id="row-2" class="row"');
  });

  test("shortens strings over 2,000 characters in the request and summaries, with a note saying how much is left out", () => {
    const long = `${"a".repeat(1999)}😀${"b".repeat(4000)}`;
    const inspection: Inspection = {
      ...SMALL_INSPECTION,
      request: { model: "gpt-4o", messages: [{ role: "user", content: long }] },
      summaries: [{ ...SMALL_INSPECTION.summaries[0]!, text: "c".repeat(2500) }],
    };
    const html = renderInspectionHtml(inspection);
    expect(html).not.toContain(`${"a".repeat(1999)}😀`);
    // Cut before the emoji rather than through it.
    expect(html).toContain(`&quot;${"a".repeat(1999)}<span class="more">… 4,002 more characters</span>&quot;`);
    expect(html).toContain(`${"c".repeat(2000)}<span class="more">… 500 more characters</span>`);
    expect(html).toContain("1 string is longer than 2,000 characters and shortened here. <code>ctxpipe build</code> prints the request whole.");
    expect(html).toContain('data-shortened="1"');
  });

  test("marks the cache break in the request: the unchanged messages, then the marker before the first that differs", () => {
    const html = renderInspectionHtml(SMALL_INSPECTION);
    expect(html).toContain('<span class="message cached" id="message-1"');
    expect(html).toMatch(/<span class="cache-marker breaks" id="cache-marker" role="note">▼ The prompt cache breaks here: message 2 is the first that differs[^<]*<\/span><span class="message cache-break-at" id="message-2"/);
    expect(html).toContain('data-compared="true" data-breaks-at="messages" data-same-messages="2" data-previous-messages="4"');
  });

  test.for([
    { breaksAt: "tools" as const, key: "tools", request: { model: "m", tools: [], messages: [] } },
    { breaksAt: "system" as const, key: "system", request: { model: "m", system: "s", messages: [] } },
    { breaksAt: "system" as const, key: "systemInstruction", request: { systemInstruction: { parts: [] }, contents: [] } },
    { breaksAt: "system" as const, key: "instructions", request: { model: "m", instructions: "s", input: [] } },
  ])("a break at the $key marks that part of the request", ({ breaksAt, key, request }) => {
    const html = renderInspectionHtml({ ...SMALL_INSPECTION, request, cache: { compared: true, breaksAt, sameMessages: 0, previousMessages: 3, note: undefined } });
    expect(html).toMatch(new RegExp(`id="cache-marker" role="note">▼ The prompt cache breaks here: [^<]*</span><span class="member cache-break-at" data-key="${key}">`));
  });

  test("the Responses API's input items are the messages: counted, anchored and marked", () => {
    const request = { model: "gpt-4o", instructions: "Be brief.", input: [{ type: "message", role: "user", content: "a" }, { type: "function_call", call_id: "c", name: "f", arguments: "{}" }, { type: "message", role: "user", content: "b" }] };
    const html = renderInspectionHtml({ ...SMALL_INSPECTION, request, cache: { compared: true, breaksAt: "messages", sameMessages: 1, previousMessages: 2, note: undefined } });
    expect(html).toContain("with 3 messages, laid out as");
    expect(html).toContain('<span class="message cached" id="message-0"');
    expect(html).toMatch(/▼ The prompt cache breaks here: message 1 is the first that differs[^<]*<\/span><span class="message cache-break-at" id="message-1"/);
  });

  test("without a comparison, says why and marks nothing", () => {
    const html = renderInspectionHtml({ ...SMALL_INSPECTION, cache: { compared: false, breaksAt: undefined, sameMessages: 0, previousMessages: 0, note: "the conversation has a single user turn" } });
    expect(html).toContain('data-compared="false" data-breaks-at="not-compared"');
    expect(html).toContain(">The conversation has a single user turn.</p>");
    expect(html).not.toContain('id="cache-marker"');
    expect(html).not.toContain('class="message cached"');
  });

  test("the golden page of a small inspection", async () => {
    await expect(renderInspectionHtml(SMALL_INSPECTION)).toMatchFileSnapshot("__fixtures__/small-inspection.html");
  });
});
