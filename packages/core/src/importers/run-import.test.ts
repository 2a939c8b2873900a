import { describe, expect, test } from "vitest";
import { createPipeline } from "../pipeline/pipeline.js";
import { wordTokenizer } from "../testing/word-tokenizer.js";
import { importAnthropicMessages } from "./import-anthropic-messages.js";
import { importMemoryChunks } from "./import-memory-chunks.js";
import { importOpenAIMessages } from "./import-openai-messages.js";
import { importStoredMessages } from "./import-stored-messages.js";

describe("importers and stored histories", () => {
  test.for([
    {
      importer: "importStoredMessages",
      run: () =>
        importStoredMessages([
          { id: "m1", role: "user", content: "hi" },
          { id: "m1", role: "user", content: "hi" },
          { id: "m1", role: "user", content: "hi, edited" },
        ]),
    },
    {
      importer: "importMemoryChunks",
      run: () =>
        importMemoryChunks([
          { id: "m1", type: "SYSTEM", content: "hi" },
          { id: "m1", type: "SYSTEM", content: "hi" },
          { id: "m1", type: "SYSTEM", content: "hi, edited" },
        ]),
    },
  ])("$importer passes a repeated id through, leaving copies and edits to the pipeline", ({ run }) => {
    expect(run().map((item) => [item.id, (item as { text: string }).text])).toEqual([
      ["m1", "hi"],
      ["m1", "hi"],
      ["m1", "hi, edited"],
    ]);
  });

  test.for([
    { stored: "an ISO string", createdAt: "2026-03-02T09:00:00Z", expected: "2026-03-02T09:00:00Z" },
    { stored: "epoch milliseconds", createdAt: 1772442000000, expected: "2026-03-02T09:00:00.000Z" },
    { stored: "a Date", createdAt: new Date(1772442000000), expected: "2026-03-02T09:00:00.000Z" },
    { stored: "MongoDB's { $date }", createdAt: { $date: "2026-03-02T09:00:00Z" }, expected: "2026-03-02T09:00:00Z" },
    { stored: "MongoDB's { $date } in milliseconds", createdAt: { $date: 1772442000000 }, expected: "2026-03-02T09:00:00.000Z" },
    { stored: "a word", createdAt: "yesterday", expected: "yesterday" },
    { stored: "an empty string", createdAt: "", expected: "" },
    { stored: "an invalid Date", createdAt: new Date(Number.NaN), expected: "Invalid Date" },
    { stored: "a number out of a date's range", createdAt: 1e20, expected: "100000000000000000000" },
    { stored: "a boolean", createdAt: true, expected: "true" },
    { stored: "another object", createdAt: { day: 2 }, expected: '{"day":2}' },
  ])("a createdAt stored as $stored is read as $expected, never refused", ({ createdAt, expected }) => {
    expect(importStoredMessages([{ id: "m1", role: "user", content: "hi", createdAt }])[0]?.createdAt).toBe(expected);
    expect(importMemoryChunks([{ id: "c1", type: "SYSTEM", content: "hi", metadata: { createdAt } }])[0]?.createdAt).toBe(expected);
  });

  test("a stored log with a copy, an edit and a bad date builds, and the report names all three", async () => {
    const items = importStoredMessages([
      { id: "m0", role: "user", content: "What is 2+2?", createdAt: "2026-03-02T09:00:00Z" },
      { id: "m1", role: "assistant", content: "5", createdAt: "2026-03-02T09:00:01Z" },
      { id: "m1", role: "assistant", content: "5", createdAt: "2026-03-02T09:00:01Z" },
      { id: "m2", role: "user", content: "Sure?", createdAt: "yesterday" },
      { id: "m1", role: "assistant", content: "4", createdAt: "2026-03-02T09:00:01Z" },
    ]);
    const built = await createPipeline().build(items, { tokenizer: wordTokenizer });
    expect(built.request.messages).toEqual([
      { role: "user", content: "What is 2+2?" },
      { role: "assistant", content: "4" },
      { role: "user", content: "Sure?" },
    ]);
    expect(built.report.entries.map((entry) => [entry.inputIndex, entry.decision, entry.reason])).toEqual([
      [0, "kept", "sent in message 0"],
      [1, "dropped", 'an earlier version of this message (same id "m1"); the edit at input index 4 takes its place'],
      [2, "dropped", 'an earlier version of this message (same id "m1"); the edit at input index 4 takes its place'],
      [3, "kept", "sent in message 2"],
      [4, "kept", "sent in message 1"],
    ]);
    expect(built.report.warnings).toEqual(['[ctxpipe] item 3 (id "m2"): createdAt "yesterday" is not a date; it keeps its position']);
  });

  test("OpenAI and Anthropic arrays carry no dates and give each message its own id, so nothing repeats", () => {
    const openai = importOpenAIMessages([{ role: "user", content: "hi" }, { role: "user", content: "hi" }]);
    const anthropic = importAnthropicMessages([{ role: "user", content: "hi" }, { role: "user", content: "hi" }]);
    expect([...openai, ...anthropic].map((item) => [item.id, item.createdAt])).toEqual([
      ["msg-0", undefined],
      ["msg-1", undefined],
      ["msg-0", undefined],
      ["msg-1", undefined],
    ]);
  });
});
