import { checkRules, type ItemInput, parseItems } from "@ctxpipe/core";
import { describe, expect, test } from "vitest";
import { anthropicAttachmentBlock } from "./anthropic-attachment-block.js";
import { anthropicMessagesRules } from "./anthropic-messages-rules.js";
import { anthropicToolInput } from "./anthropic-tool-input.js";
import { renderAnthropicMessages } from "./render-anthropic-messages.js";

const render = (items: ItemInput[]) => renderAnthropicMessages(parseItems(items));
const text = (value: string) => ({ type: "text", text: value });

describe("renderAnthropicMessages", () => {
  const withLaterInstruction: ItemInput[] = [
    { id: "s1", type: "system", text: "Rules." },
    { id: "sum", type: "summary", text: "Earlier work.", originalCount: 4 },
    { id: "u1", type: "user", text: "Hi." },
    { id: "a1", type: "assistant", text: "Hello." },
    { id: "s2", type: "system", text: "Answer in French from now on." },
    { id: "a2", type: "assistant", text: "Bien sûr." },
    { id: "u2", type: "user", text: "Merci." },
  ];
  const leadingSystem = "Rules.\n\n[Previous conversation summary (4 messages compressed)]\n\nEarlier work.";

  test("leading system-role items form the system prompt, joined by blank lines; a later system message is moved into it, and said so", () => {
    const rendered = render(withLaterInstruction);
    expect(rendered.system).toBe(`${leadingSystem}\n\nAnswer in French from now on.`);
    expect(rendered.messages).toEqual([
      { role: "user", content: [text("Hi.")] },
      { role: "assistant", content: [text("Hello."), text("Bien sûr.")] },
      { role: "user", content: [text("Merci.")] },
    ]);
    expect([...rendered.messageIndexById]).toEqual([
      ["u1", 0],
      ["a1", 1],
      ["a2", 1],
      ["u2", 2],
    ]);
    expect(rendered.repaired).toEqual([
      {
        item: expect.objectContaining({ id: "s2" }),
        reason: "a system message inside the conversation, moved into the system prompt: the Anthropic Messages API takes system text only in its top-level system parameter",
      },
    ]);
  });

  test('with laterSystemMessages "user", a later system message goes user-side where it was, labelled, and said so', () => {
    const rendered = renderAnthropicMessages(parseItems(withLaterInstruction), { laterSystemMessages: "user" });
    expect(rendered.system).toBe(leadingSystem);
    expect(rendered.messages).toEqual([
      { role: "user", content: [text("Hi.")] },
      { role: "assistant", content: [text("Hello.")] },
      { role: "user", content: [text("[System message]\nAnswer in French from now on.")] },
      { role: "assistant", content: [text("Bien sûr.")] },
      { role: "user", content: [text("Merci.")] },
    ]);
    expect(rendered.repaired).toEqual([
      {
        item: expect.objectContaining({ id: "s2" }),
        reason:
          "a system message inside the conversation, sent where it was as user-side text labelled [System message]: the Anthropic Messages API takes system text only in its top-level system parameter",
      },
    ]);
  });

  test("no system prompt at all leaves system undefined (ANT-003)", () => {
    const rendered = render([
      { id: "s", type: "system", text: "  " },
      { id: "u", type: "user", text: "Hi." },
    ]);
    expect(rendered.system).toBeUndefined();
    expect(rendered.dropped).toEqual([{ item: expect.objectContaining({ id: "s" }), reason: "nothing to send: its text is blank" }]);
  });

  test("merges consecutive same-role items into one message (ANT-005), tool results first in it (ANT-008)", () => {
    const rendered = render([
      { id: "u1", type: "user", text: "Read it." },
      { id: "a1", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "read", arguments: "{}" }] },
      { id: "note", type: "user", text: "Also, hurry." },
      { id: "t1", type: "tool-result", callId: "c1", output: "done" },
      { id: "e1", type: "error", text: "Rate limited." },
      { id: "a2", type: "assistant", text: "Read." },
      { id: "u2", type: "user", text: "Thanks." },
    ]);
    expect(rendered.messages).toEqual([
      { role: "user", content: [text("Read it.")] },
      { role: "assistant", content: [{ type: "tool_use", id: "c1", name: "read", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "done" }, text("Also, hurry.")] },
      { role: "assistant", content: [text("Rate limited."), text("Read.")] },
      { role: "user", content: [text("Thanks.")] },
    ]);
    expect(rendered.messageIndexById.get("note")).toBe(2);
    expect(rendered.messageIndexById.get("t1")).toBe(2);
    expect(rendered.messageIndexById.get("a2")).toBe(3);
    expect(checkRules(anthropicMessagesRules, { max_tokens: 1, messages: rendered.messages })).toEqual([]);
  });

  test("signed reasoning opens its assistant message; unsigned reasoning is not sent", () => {
    const rendered = render([
      { id: "u", type: "user", text: "Go." },
      {
        id: "a",
        type: "assistant",
        text: "Done.",
        reasoning: [{ text: "plan", signature: "sig" }, { text: "no signature" }, { text: "opaque", redacted: true }],
      },
      { id: "u2", type: "user", text: "Next." },
    ]);
    expect(rendered.messages[1]).toEqual({
      role: "assistant",
      content: [{ type: "thinking", thinking: "plan", signature: "sig" }, { type: "redacted_thinking", data: "opaque" }, text("Done.")],
    });
  });

  test("reasoning of an item merged into an earlier assistant turn is left out, with a warning (ANT-014)", () => {
    const rendered = render([
      { id: "u", type: "user", text: "Go." },
      { id: "a1", type: "assistant", text: "First.", reasoning: [{ text: "one", signature: "s1" }] },
      { id: "a2", type: "assistant", text: "Second.", reasoning: [{ text: "two", signature: "s2" }] },
      { id: "u2", type: "user", text: "Next." },
    ]);
    expect(rendered.messages[1]).toEqual({ role: "assistant", content: [{ type: "thinking", thinking: "one", signature: "s1" }, text("First."), text("Second.")] });
    expect(rendered.warnings).toEqual(['reasoning of "a2" left out: its message is merged into the assistant turn before it, and thinking blocks must open a turn']);
  });

  test("an assistant item with only reasoning is not sent: a message cannot end with thinking (ANT-023)", () => {
    const rendered = render([
      { id: "u", type: "user", text: "Go." },
      { id: "a", type: "assistant", text: " ", reasoning: [{ text: "hmm", signature: "sig" }] },
      { id: "t", type: "thinking", text: "loose thought" },
      { id: "u2", type: "user", text: "Next." },
    ]);
    expect(rendered.messages).toEqual([{ role: "user", content: [text("Go."), text("Next.")] }]);
    expect(rendered.dropped.map(({ item, reason }) => [item.id, reason])).toEqual([
      ["a", "nothing to send: its text is blank, and Anthropic rejects empty content"],
      ["t", "thinking items are not sent to the Anthropic Messages API: it takes back only signed reasoning"],
    ]);
  });

  test("blank tool output gets a placeholder, never an empty block; errors set is_error", () => {
    const rendered = render([
      { id: "u", type: "user", text: "Go." },
      {
        id: "a",
        type: "assistant",
        text: "",
        toolCalls: [
          { id: "c1", name: "a", arguments: "{}" },
          { id: "c2", name: "b", arguments: "{}" },
        ],
      },
      { id: "t1", type: "tool-result", callId: "c1", output: "" },
      { id: "t2", type: "tool-result", callId: "c2", output: " \n", isError: true },
    ]);
    expect(rendered.messages[2]!.content).toEqual([
      { type: "tool_result", tool_use_id: "c1", content: "(the tool returned no output)" },
      { type: "tool_result", tool_use_id: "c2", content: "(the tool failed without output)", is_error: true },
    ]);
  });

  test("a final assistant message does not end in whitespace (ANT-016), and the item is not changed", () => {
    const items = parseItems([
      { id: "u", type: "user", text: "Go." },
      { id: "a", type: "assistant", text: "Sure, " },
    ]);
    const rendered = renderAnthropicMessages(items);
    expect(rendered.messages[1]).toEqual({ role: "assistant", content: [text("Sure,")] });
    expect(items[1]).toMatchObject({ text: "Sure, " });
  });

  test("never changes the items", () => {
    const items = parseItems([
      { id: "u", type: "user", text: "Go." },
      { id: "a", type: "assistant", text: "x", toolCalls: [{ id: "c", name: "n", arguments: '{"a":1}' }] },
      { id: "t", type: "tool-result", callId: "c", output: "ok" },
    ]);
    const before = structuredClone(items);
    renderAnthropicMessages(items);
    expect(items).toEqual(before);
  });
});

describe("anthropicToolInput", () => {
  test.for([
    { args: '{"path":"a.ts"}', input: { path: "a.ts" } },
    { args: "", input: {} },
    { args: "  ", input: {} },
    { args: '{"path":"a.ts"', input: { _raw: '{"path":"a.ts"' } },
    { args: "[1,2]", input: { _raw: "[1,2]" } },
    { args: "null", input: { _raw: "null" } },
    { args: '"text"', input: { _raw: '"text"' } },
  ])("$args → $input (ANT-020: input is always an object)", ({ args, input }) => {
    expect(anthropicToolInput(args)).toEqual(input);
  });
});

describe("anthropicAttachmentBlock", () => {
  test.for([
    { name: "https image → url source", attachment: { type: "image", url: "https://x.test/a.png" }, block: { type: "image", source: { type: "url", url: "https://x.test/a.png" } } },
    {
      name: "data: image → base64 source",
      attachment: { type: "image", url: "data:image/png;base64,iVBOR" },
      block: { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
    },
    {
      name: "pdf data → base64 document, titled by its filename",
      attachment: { type: "file", data: "JVBERi0x", mediaType: "application/pdf", filename: "a.pdf" },
      block: { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0x" }, title: "a.pdf" },
    },
    {
      name: "pdf data: URL → base64 document",
      attachment: { type: "file", data: "data:application/pdf;base64,JVBERi0x" },
      block: { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0x" } },
    },
    {
      name: "plain text data → text document, decoded",
      attachment: { type: "file", data: "aGVsbG8gd29ybGQ=", mediaType: "text/plain" },
      block: { type: "document", source: { type: "text", media_type: "text/plain", data: "hello world" } },
    },
    {
      name: "image file data → base64 image",
      attachment: { type: "file", data: "R0lGOD", mediaType: "image/gif" },
      block: { type: "image", source: { type: "base64", media_type: "image/gif", data: "R0lGOD" } },
    },
    {
      name: "an unsupported image type → a text note",
      attachment: { type: "image", url: "data:image/svg+xml;base64,PHN2Zz4=" },
      block: text("[Attached image not sent: Anthropic accepts base64 JPEG, PNG, GIF or WebP images, not image/svg+xml]"),
    },
    {
      name: "a Word file → a text note",
      attachment: { type: "file", data: "UEsDBA", mediaType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", filename: "a.docx" },
      block: text("[Attached file a.docx not sent: Anthropic accepts PDF, plain text and JPEG, PNG, GIF or WebP images, not application/vnd.openxmlformats-officedocument.wordprocessingml.document]"),
    },
    {
      name: "a provider file id → a text note",
      attachment: { type: "file", fileId: "file-123" },
      block: text("[Attached file not sent: it is stored as file id file-123, and only file data can be sent]"),
    },
  ] as const)("$name", ({ attachment, block }) => {
    expect(anthropicAttachmentBlock(attachment)).toEqual(block);
  });

  test("attachments come before the user's text", () => {
    const rendered = render([{ id: "u", type: "user", text: "What is this?", attachments: [{ type: "image", url: "https://x.test/a.png" }] }]);
    expect(rendered.messages[0]!.content.map((block) => block.type)).toEqual(["image", "text"]);
  });
});
