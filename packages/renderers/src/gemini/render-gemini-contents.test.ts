import { type ItemInput, parseItems } from "@ctxpipe/core";
import { describe, expect, test } from "vitest";
import { renderGeminiContents } from "./render-gemini-contents.js";

const render = (items: ItemInput[], options = {}) => renderGeminiContents(parseItems(items), options);

describe("renderGeminiContents", () => {
  const withLaterNote = [
    { id: "sys", type: "system", text: "Rules." },
    { id: "sum", type: "summary", text: "Earlier work.", originalCount: 4 },
    { id: "u1", type: "user", text: "Hi." },
    { id: "a1", type: "assistant", text: "Hello." },
    { id: "note", type: "system", text: "From now on answer in French." },
    { id: "u2", type: "user", text: "Short answers." },
  ] satisfies ItemInput[];
  const summaryText = "[Previous conversation summary (4 messages compressed)]\n\nEarlier work.";

  test("leading system items go to the system instruction; a later system message is moved there too, and said so", () => {
    const rendered = renderGeminiContents(parseItems(withLaterNote));
    expect(rendered.systemInstruction).toEqual({ parts: [{ text: "Rules." }, { text: summaryText }, { text: "From now on answer in French." }] });
    expect(rendered.contents).toEqual([
      { role: "user", parts: [{ text: "Hi." }] },
      { role: "model", parts: [{ text: "Hello." }] },
      { role: "user", parts: [{ text: "Short answers." }] },
    ]);
    expect([...rendered.messageIndexById]).toEqual([
      ["u1", 0],
      ["a1", 1],
      ["u2", 2],
    ]);
    expect(rendered.repaired).toEqual([
      {
        item: expect.objectContaining({ id: "note" }),
        reason: "a system message inside the conversation, moved into the system instruction: Gemini takes system text only in systemInstruction",
      },
    ]);
  });

  test('with laterSystemMessages "user", a later system message is labelled user text where it was, and said so', () => {
    const rendered = renderGeminiContents(parseItems(withLaterNote), { laterSystemMessages: "user" });
    expect(rendered.systemInstruction).toEqual({ parts: [{ text: "Rules." }, { text: summaryText }] });
    expect(rendered.contents).toEqual([
      { role: "user", parts: [{ text: "Hi." }] },
      { role: "model", parts: [{ text: "Hello." }] },
      { role: "user", parts: [{ text: "[System message]\nFrom now on answer in French." }, { text: "Short answers." }] },
    ]);
    expect([...rendered.messageIndexById]).toEqual([
      ["u1", 0],
      ["a1", 1],
      ["note", 2],
      ["u2", 2],
    ]);
    expect(rendered.repaired).toEqual([
      {
        item: expect.objectContaining({ id: "note" }),
        reason: "a system message inside the conversation, sent where it was as user-side text labelled [System message]: Gemini takes system text only in systemInstruction",
      },
    ]);
  });

  test("consecutive contents of one role merge into one", () => {
    const rendered = render([
      { id: "u1", type: "user", text: "One." },
      { id: "u2", type: "user-intervention", text: "Two." },
      { id: "a1", type: "assistant", text: "Looking." },
      { id: "a2", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "look", arguments: "{}" }] },
      { id: "t1", type: "tool-result", callId: "c1", output: "seen" },
    ]);
    expect(rendered.contents.map((content) => [content.role, content.parts.length])).toEqual([
      ["user", 2],
      ["model", 2],
      ["user", 1],
    ]);
  });

  test("results of one call turn share a content, and the user's next words get their own (GEM-021)", () => {
    const rendered = render([
      { id: "u1", type: "user", text: "Go." },
      { id: "a1", type: "assistant", toolCalls: [{ id: "c1", name: "one", arguments: "{}" }, { id: "c2", name: "two", arguments: "{}" }] },
      { id: "t1", type: "tool-result", callId: "c1", output: "1" },
      { id: "t2", type: "tool-result", callId: "c2", output: "2", isError: true },
      { id: "u2", type: "user", text: "And now?", attachments: [{ type: "image", url: "data:image/png;base64,iVBOR" }] },
    ]);
    expect(rendered.contents.slice(2)).toEqual([
      {
        role: "user",
        parts: [
          { functionResponse: { id: "c1", name: "one", response: { output: "1" } } },
          { functionResponse: { id: "c2", name: "two", response: { error: "2" } } },
        ],
      },
      { role: "user", parts: [{ text: "And now?" }, { inlineData: { mimeType: "image/png", data: "iVBOR" } }] },
    ]);
  });

  test("a result takes the name of its call, and falls back to its own toolName", () => {
    const rendered = render([
      { id: "u1", type: "user", text: "Go." },
      { id: "a1", type: "assistant", toolCalls: [{ id: "c1", name: "from_call", arguments: "{}" }] },
      { id: "t1", type: "tool-result", callId: "c1", toolName: "stale_name", output: "1" },
      { id: "t2", type: "tool-result", callId: "orphan", toolName: "own_name", output: "2" },
    ]);
    expect(rendered.contents[2]?.parts).toEqual([
      { functionResponse: { id: "c1", name: "from_call", response: { output: "1" } } },
      { functionResponse: { id: "orphan", name: "own_name", response: { output: "2" } } },
    ]);
  });

  test.for([
    { arguments: '{"path":"a"}', args: { path: "a" } },
    { arguments: "", args: {} },
    { arguments: "  ", args: {} },
    { arguments: "[1,2]", args: { _raw: "[1,2]" } },
    { arguments: '{"path":', args: { _raw: '{"path":' } },
  ])("call arguments $arguments become args $args", ({ arguments: text, args }) => {
    const rendered = render([
      { id: "u1", type: "user", text: "Go." },
      { id: "a1", type: "assistant", text: "Calling.", toolCalls: [{ id: "c1", name: "f", arguments: text }] },
    ]);
    expect(rendered.contents[1]?.parts).toEqual([{ text: "Calling." }, { functionCall: { id: "c1", name: "f", args } }]);
  });

  test("blank text is never sent; an item with nothing else is dropped and its neighbours merge", () => {
    const rendered = render([
      { id: "blank_sys", type: "system", text: " " },
      { id: "u1", type: "user", text: "One." },
      { id: "blank", type: "assistant", text: "\n\n", reasoning: [{ text: "hmm" }] },
      { id: "u2", type: "user", text: "", attachments: [{ type: "file", data: "JVBER", mediaType: "application/pdf" }] },
      { id: "thought", type: "thinking", text: "Private." },
    ]);
    expect(rendered.systemInstruction).toBeUndefined();
    expect(rendered.contents).toEqual([{ role: "user", parts: [{ text: "One." }, { inlineData: { mimeType: "application/pdf", data: "JVBER" } }] }]);
    expect(rendered.dropped.map(({ item, reason }) => [item.id, reason])).toEqual([
      ["blank_sys", "a blank system item is not sent: Gemini rejects empty text parts"],
      ["blank", "the assistant item has nothing to send (blank text, no attachments, no calls): Gemini rejects empty parts"],
      ["thought", "thinking items are not sent to Gemini generateContent"],
    ]);
  });

  test.for([
    { source: "an https image URL, typed by its extension", attachment: { type: "image", url: "https://example.test/a.JPG?size=2" }, part: { fileData: { fileUri: "https://example.test/a.JPG?size=2", mimeType: "image/jpeg" } } },
    { source: "an https URL without an extension, untyped", attachment: { type: "image", url: "https://example.test/image" }, part: { fileData: { fileUri: "https://example.test/image" } } },
    { source: "a base64 data: URL", attachment: { type: "image", url: "data:image/webp;base64,UklG" }, part: { inlineData: { mimeType: "image/webp", data: "UklG" } } },
    { source: "a percent-encoded data: URL, re-encoded as base64", attachment: { type: "file", data: "data:,hi%20there" }, part: { inlineData: { mimeType: "text/plain", data: "aGkgdGhlcmU=" } } },
    { source: "bare base64 of unknown type", attachment: { type: "file", data: "AAAA" }, part: { inlineData: { mimeType: "application/octet-stream", data: "AAAA" } } },
    { source: "bare base64 typed by its file name", attachment: { type: "file", data: "AAAA", filename: "notes.md" }, part: { inlineData: { mimeType: "text/markdown", data: "AAAA" } } },
    {
      source: "a Files API URI with a media type",
      attachment: { type: "file", fileId: "https://generativelanguage.googleapis.com/v1beta/files/abc", mediaType: "application/pdf" },
      part: { fileData: { fileUri: "https://generativelanguage.googleapis.com/v1beta/files/abc", mimeType: "application/pdf" } },
    },
    { source: "a gs:// file id", attachment: { type: "file", fileId: "gs://bucket/report.pdf" }, part: { fileData: { fileUri: "gs://bucket/report.pdf", mimeType: "application/pdf" } } },
  ] as const)("an attachment from $source", ({ attachment, part }) => {
    const rendered = render([{ id: "u1", type: "user", text: "", attachments: [attachment] }]);
    expect(rendered.contents).toEqual([{ role: "user", parts: [part] }]);
  });
});
