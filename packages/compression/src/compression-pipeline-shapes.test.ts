// CompressionPipeline as chat mode calls it: no strategies given, and the message lists it keeps
// (stored messages, OpenAI Chat messages) going in and coming back in the same shape.
import { importStoredMessages, InvalidInputError, type ItemInput } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { CompressionPipeline } from "./compression-pipeline.js";
import { DEFAULT_STRATEGIES } from "./default-strategies.js";

type OpenAIMessage = { role: string; content: string | null; tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>; tool_call_id?: string };
type StoredMessage = OpenAIMessage & { id: string; createdAt: string; mode?: string; runId?: string; toolName?: string; partType?: string };

const LOG = "line ".repeat(120);

/** Turns of a question, a tool call, a long result and an answer, as OpenAI Chat messages. */
function openAIHistory(turns: number): OpenAIMessage[] {
  const messages: OpenAIMessage[] = [];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: "user", content: `question ${turn} about the build` });
    messages.push({ role: "assistant", content: null, tool_calls: [{ id: `c${turn}`, type: "function", function: { name: "read_log", arguments: `{"n":${turn}}` } }] });
    messages.push({ role: "tool", tool_call_id: `c${turn}`, content: LOG });
    messages.push({ role: "assistant", content: `answer ${turn} is in the log` });
  }
  return messages;
}

/** The same turns as a conversation store keeps them: ids, dates, run metadata. */
function storedHistory(turns: number): StoredMessage[] {
  return openAIHistory(turns).map((message, index) => ({
    ...message,
    id: `m${index}`,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
    mode: "chat",
    runId: "chat-c1",
    ...(message.role === "tool" ? { toolName: "read_log", partType: "tool_result" } : {}),
  }));
}

function itemHistory(turns: number): ItemInput[] {
  return importStoredMessages(storedHistory(turns));
}

describe("the chat-mode calls, as chat mode writes them", () => {
  test("settings, the first check, then the in-loop check that compresses only the history", async () => {
    const settings = { llm: { tokenBudget: 3000 as number | undefined } };
    // What the context builder gives: the system prompt and the history, as OpenAI Chat messages.
    const messages: OpenAIMessage[] = [{ role: "system", content: "You are a careful build engineer." }, ...openAIHistory(28)];
    messages.push({ role: "user", content: "What failed?" });

    const compressionPipeline = new CompressionPipeline({
      tokenBudget: settings.llm.tokenBudget ?? 128000,
      triggerThreshold: 0.8,
      targetUsage: 0.5,
      minRecentMessages: 10,
    });

    // The first check (before the loop).
    const initialUsage = compressionPipeline.getUsage(messages);
    expect(initialUsage.usagePercent).toBeGreaterThan(0.8);
    if (compressionPipeline.shouldCompress(messages)) {
      const compressed = await compressionPipeline.compressIfNeeded(messages);
      messages.length = 0;
      messages.push(...compressed.messages);
    }
    expect(compressionPipeline.getUsage(messages).usagePercent).toBeLessThanOrEqual(0.8);
    expect(messages[0]).toEqual({ role: "system", content: "You are a careful build engineer." });
    expect(messages.at(-1)).toEqual({ role: "user", content: "What failed?" });

    // The tool loop: it remembers where it began, appends its rounds, and checks every turn.
    let loopStartIndex = messages.length;
    const loopMessages: OpenAIMessage[] = [];
    let compressions = 0;
    for (let turn = 0; turn < 12; turn++) {
      const usage = compressionPipeline.getUsage(messages);
      if (usage.usagePercent > 0.8) {
        const result = await compressionPipeline.compressHistoricalMessages(messages, loopStartIndex);
        messages.length = 0;
        messages.push(...result.messages);
        loopStartIndex = result.newLoopStartIndex;
        compressions++;
      }
      const call: OpenAIMessage = { role: "assistant", content: null, tool_calls: [{ id: `loop${turn}`, type: "function", function: { name: "run", arguments: "{}" } }] };
      const result: OpenAIMessage = { role: "tool", tool_call_id: `loop${turn}`, content: "out ".repeat(80) };
      messages.push(call, result);
      loopMessages.push(call, result);
    }
    expect(compressions).toBeGreaterThan(0);
    // The current loop's messages are the loop's own objects, untouched, from the new start on.
    expect(messages.slice(loopStartIndex)).toHaveLength(loopMessages.length);
    messages.slice(loopStartIndex).forEach((message, index) => {
      expect(message).toBe(loopMessages[index]);
    });
  });

  test("with no strategies, the chain is the loops' and the CLI's default: cut results over their cap, clear old tool results, then slide the window", async () => {
    const compressionPipeline = new CompressionPipeline({ tokenBudget: 2000, minRecentMessages: 2 });
    const outcome = await compressionPipeline.compressIfNeeded([...openAIHistory(20), { role: "user", content: "What failed?" }]);
    expect(DEFAULT_STRATEGIES).toEqual(["truncate-tool-results", "clear-tool-results", "sliding-window"]);
    expect(outcome.report.strategies.map((strategy) => strategy.name)).toEqual(["truncate-tool-results", "clear-tool-results", "sliding-window"]);
    expect(outcome.compressed).toBe(true);
  });
});

describe("each shape comes back in the shape it came in", () => {
  const shapes = [
    { shape: "items", history: itemHistory },
    { shape: "stored messages", history: storedHistory },
    { shape: "OpenAI messages", history: openAIHistory },
  ] as const;

  test.for(shapes)("$shape under the trigger: the caller's own objects, in order", async ({ history }) => {
    const compression = new CompressionPipeline({ tokenizer: wordTokenizer, tokenBudget: 100_000 });
    const given = history(3) as object[];
    const outcome = await compression.compressIfNeeded(given);
    expect(outcome.compressed).toBe(false);
    expect(outcome.messages).toHaveLength(given.length);
    outcome.messages.forEach((message, index) => {
      expect(message).toBe(given[index]);
    });
  });

  test.for(shapes)("$shape over the trigger: untouched messages are the caller's objects, and the loop start is an index into the list given back", async ({ history }) => {
    const compression = new CompressionPipeline({ tokenizer: wordTokenizer, tokenBudget: 2500, minRecentMessages: 0 });
    const given = history(25) as object[];
    const loopStart = given.length - 8;
    const outcome = await compression.compressHistoricalMessages(given, loopStart);
    expect(outcome.compressed).toBe(true);
    expect(outcome.messages.slice(outcome.newLoopStartIndex)).toHaveLength(8);
    outcome.messages.slice(outcome.newLoopStartIndex).forEach((message, index) => {
      expect(message).toBe(given[loopStart + index]);
    });
    // Every message is either the caller's object or one written for a changed item, never a copy of an untouched one.
    const originals = new Set(given);
    const changed = outcome.messages.filter((message) => !originals.has(message as object));
    expect(changed.length).toBeGreaterThan(0);
  });

  test("stored messages: a cleared tool result is the caller's record with the placeholder as content, and the list reads back", async () => {
    const compression = new CompressionPipeline({ strategies: ["clear-tool-results"], tokenizer: wordTokenizer, tokenBudget: 3000, minRecentMessages: 0 });
    const given = storedHistory(40);
    const outcome = await compression.compressIfNeeded(given);
    const cleared = outcome.items.filter((item) => item.type === "tool-result" && item.output !== LOG);
    expect(cleared.length).toBeGreaterThan(0);
    const first = outcome.messages.find((message) => message.id === cleared[0]!.id)!;
    const source = given.find((message) => message.id === cleared[0]!.id)!;
    expect(first).toEqual({ ...source, content: cleared[0]!.type === "tool-result" ? cleared[0]!.output : "" });
    expect(first).not.toBe(source);
    expect(source.content).toBe(LOG);
    expect(importStoredMessages(outcome.messages)).toEqual(outcome.items);
  });

  test("stored messages: a summary is a stored summary message that reads back as the same summary", async () => {
    const compression = new CompressionPipeline({
      strategies: [{ type: "summarize", now: () => Date.UTC(2026, 1, 1) }],
      summarizer: () => "They read the log.",
      tokenizer: wordTokenizer,
      tokenBudget: 2000,
      minRecentMessages: 2,
    });
    const given: StoredMessage[] = [...storedHistory(20), { id: "now", role: "user", content: "What failed?", createdAt: "2026-01-02T00:00:00.000Z" }];
    const outcome = await compression.compressIfNeeded(given);
    const record = outcome.records[0]!;
    expect(outcome.messages[0]).toEqual({
      id: record.id,
      role: "system",
      kind: "summary",
      content: "They read the log.",
      coveredIds: record.coveredIds,
      createdAt: "2026-02-01T00:00:00.000Z",
    });
    expect(outcome.messages.at(-1)).toBe(given.at(-1));
    const [summary] = importStoredMessages([outcome.messages[0]]);
    expect(summary).toMatchObject({ id: record.id, type: "summary", text: "They read the log.", coveredIds: record.coveredIds });
  });

  test("OpenAI messages: a summary is a system message with the summary heading (developer when the caller's system prompt is)", async () => {
    const compression = new CompressionPipeline({ strategies: ["summarize"], summarizer: () => "They read the log.", tokenizer: wordTokenizer, tokenBudget: 2000, minRecentMessages: 2 });
    const given: OpenAIMessage[] = [{ role: "developer", content: "Be brief." }, ...openAIHistory(20), { role: "user", content: "What failed?" }];
    const outcome = await compression.compressIfNeeded(given);
    const covered = outcome.records[0]!.coveredIds.length;
    expect(outcome.messages[0]).toBe(given[0]);
    expect(outcome.messages[1]).toEqual({ role: "developer", content: `[Previous conversation summary (${covered} messages compressed)]\n\nThey read the log.` });
    expect(outcome.messages.at(-1)).toBe(given.at(-1));
  });

  test("stored messages: the loop start is the caller's record, past a tool message with two results and a record stored twice", async () => {
    const compression = new CompressionPipeline({ tokenizer: wordTokenizer, tokenBudget: 2500, minRecentMessages: 0 });
    const past = storedHistory(20);
    const twoResults = [
      { id: "pair-call", role: "assistant", content: null, tool_calls: [0, 1].map((n) => ({ id: `p${n}`, type: "function", function: { name: "read_log", arguments: "{}" } })), createdAt: "2026-01-01T01:00:00.000Z" },
      { id: "pair-results", role: "tool", content: [0, 1].map((n) => ({ type: "tool_result", tool_use_id: `p${n}`, content: `result ${n}` })), createdAt: "2026-01-01T01:00:01.000Z" },
    ];
    const loop = [
      { id: "loop-user", role: "user", content: "Fix the build.", createdAt: "2026-01-01T02:00:00.000Z" },
      { id: "loop-call", role: "assistant", content: null, tool_calls: [{ id: "l0", type: "function", function: { name: "run", arguments: "{}" } }], createdAt: "2026-01-01T02:00:01.000Z" },
      { id: "loop-result", role: "tool", tool_call_id: "l0", content: "ok", createdAt: "2026-01-01T02:00:02.000Z" },
    ];
    const given: object[] = [...past, past[0]!, ...twoResults, ...loop];
    const outcome = await compression.compressHistoricalMessages(given, given.length - loop.length);
    expect(outcome.compressed).toBe(true);
    expect(outcome.messages.slice(outcome.newLoopStartIndex)).toEqual(loop);
    outcome.messages.slice(outcome.newLoopStartIndex).forEach((message, index) => {
      expect(message).toBe(loop[index]);
    });
    // The record with two results comes back whole, once.
    expect(outcome.messages.filter((message) => message === twoResults[1])).toHaveLength(1);
  });
});

describe("a list that is not one shape is refused, naming the index", () => {
  const cases = [
    {
      name: "an OpenAI message among stored ones",
      messages: [...storedHistory(1), { role: "user", content: "Hi" }],
      expected: { index: 4, id: undefined, path: [], message: "is an OpenAI Chat message (a role and no id), but the list began with a stored message (a role and an id) at index 0; pass one shape per call" },
    },
    {
      name: "a message among items",
      messages: [...itemHistory(1), { id: "m9", role: "user", content: "Hi" }],
      expected: { index: 4, id: "m9", path: [], message: "is a stored message (a role and an id), but the list began with an item (a type, no message content) at index 0; pass one shape per call" },
    },
    {
      name: "an object that is an item and a message at once",
      messages: [{ id: "x", type: "user", role: "user", content: "Hi" }],
      expected: { index: 0, id: "x", path: ["content"], message: 'is ambiguous: it has an item type ("user") and a message\'s content; give items (type, text) or messages (role, content), not both in one object' },
    },
    {
      name: "an object that is neither",
      messages: [{ role: "user", content: "Hi" }, { text: "Hi" }],
      expected: { index: 1, id: undefined, path: [], message: "has neither an item type nor a message role; expected an item ({ id, type, ... }) or a message ({ role, content, ... })" },
    },
    {
      name: "something that is not an object",
      messages: [{ role: "user", content: "Hi" }, "Hi"],
      expected: { index: 1, id: undefined, path: [], message: 'expected an item or a message object, got the text "Hi"' },
    },
  ];

  test.for(cases)("$name", async ({ messages, expected }) => {
    const compression = new CompressionPipeline();
    const calls = [() => compression.getUsage(messages as object[]), () => compression.shouldCompress(messages as object[])];
    for (const call of calls) {
      let error: unknown;
      try {
        call();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(InvalidInputError);
      const { code, name, source, issues, index, id, path, message } = error as InvalidInputError;
      expect({ code, name, source, issues, index, id, path, message }).toEqual({
        ...expected,
        code: "INPUT_INVALID",
        name: "InvalidInputError",
        source: "CompressionPipeline message",
        issues: [expected],
        message: `Invalid CompressionPipeline message[${expected.index}]${expected.id === undefined ? "" : ` (id "${expected.id}")`}, field ${expected.path.length === 0 ? "(record)" : expected.path.join(".")}: ${expected.message}`,
      });
    }
    await expect(compression.compressIfNeeded(messages as object[])).rejects.toThrow(InvalidInputError);
    await expect(compression.compressHistoricalMessages(messages as object[], 0)).rejects.toThrow(InvalidInputError);
  });

  test("a stored message the importer refuses is named by its index in the caller's list", () => {
    const compression = new CompressionPipeline();
    const messages = [...storedHistory(2), { id: "bad", role: "tool", content: "no call id", createdAt: "2026-01-03T00:00:00.000Z" }];
    expect(() => compression.getUsage(messages)).toThrow(expect.objectContaining({ name: "InvalidInputError", index: 8, id: "bad", path: ["tool_call_id"] }));
  });
});
