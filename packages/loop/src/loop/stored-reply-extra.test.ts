// A reply's extra fields (the Responses adapter's reasoning items and item ids) are stored on the
// assistant message, and come back from the log in the item's metadata.extra for the next build.
import { type BuildOptions, importStoredMessages, type ItemInput, type OpenAIChatRequest, Pipeline } from "@ctxpipe/core";
import { afterEach, describe, expect, test, vi } from "vitest";
import { counterIds, fixedClock, tempStore } from "../__fixtures__/loop-fixtures.js";
import { ChatLoop } from "../chat/chat-loop.js";
import type { ModelAdapter, ModelReply } from "../model/model-adapter.js";
import type { LoopTool } from "../tools/loop-tool.js";

const clock: LoopTool = { name: "get_time", description: "The current time.", run: () => "12:00" };

const openaiResponses = {
  sequence: [
    { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Ask the clock." }], encrypted_content: "gAAAA…" },
    { type: "function_call", call_id: "call_1", id: "fc_1", status: "completed" },
  ],
};

/** Answers from a list of replies and records the requests. */
function repliesModel(replies: ModelReply[]): ModelAdapter<"openai"> & { readonly requests: OpenAIChatRequest[] } {
  const requests: OpenAIChatRequest[] = [];
  return {
    name: "replies",
    renderer: "openai",
    requests,
    complete: async ({ request }) => {
      requests.push(request);
      const reply = replies.shift();
      if (reply === undefined) throw new Error("no reply left");
      return reply;
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** The items of every build the loop makes. */
function recordBuilds(): Array<ReadonlyArray<ItemInput>> {
  const builds: Array<ReadonlyArray<ItemInput>> = [];
  const build = Pipeline.prototype.build;
  vi.spyOn(Pipeline.prototype, "build").mockImplementation(function (this: Pipeline, items: ReadonlyArray<ItemInput>, options?: BuildOptions) {
    builds.push(items.slice());
    return build.call(this, items, options);
  } as typeof build);
  return builds;
}

describe("ModelReply.extra", () => {
  test("is stored on the assistant message and imported into metadata.extra; fields of the message shape are not taken from it", async () => {
    const model = repliesModel([
      { text: "", toolCalls: [{ id: "call_1", name: "get_time", arguments: "{}" }], extra: { openaiResponses, id: "not-the-id", role: "user", content: "not the text", pinned: true, skipped: undefined } },
      { text: "Noon.", toolCalls: [] },
    ]);
    const { store } = tempStore();
    const loop = new ChatLoop({ model, store, tools: [clock], newId: counterIds(), now: fixedClock(), retryDelayMs: 0 });
    await loop.send({ conversationId: "c1", userInput: "Time?" });

    const { messages } = await store.load("c1");
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(messages[1]!.id).toMatch(/^m\d+$/);
    expect(messages[1]).toMatchObject({ content: null, openaiResponses });
    expect(messages[1]).not.toHaveProperty("pinned");
    expect(messages[1]).not.toHaveProperty("skipped");
    expect(Object.keys(messages[3]!)).not.toContain("openaiResponses");

    const items = importStoredMessages(messages);
    expect(items[1]).toMatchObject({ type: "assistant", text: "", toolCalls: [{ id: "call_1", name: "get_time" }], metadata: { extra: { openaiResponses } } });
    expect(items[3]!.metadata?.extra).toBeUndefined();
    // Renderers that do not know the field ignore it: the Chat Completions request is what it was without it.
    expect(model.requests[1]!.messages[2]).toEqual({ role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_time", arguments: "{}" } }] });
  });

  test("a stored Responses turn reaches the next builds as the same item, with no reasoning field added: the renderer reads the reasoning from its sequence", async () => {
    const builds = recordBuilds();
    const model = repliesModel([
      { text: "", toolCalls: [{ id: "call_1", name: "get_time", arguments: "{}" }], extra: { openaiResponses } },
      { text: "Noon.", toolCalls: [] },
      { text: "Still noon.", toolCalls: [] },
    ]);
    const { store } = tempStore();
    const loop = new ChatLoop({ model, store, tools: [clock], newId: counterIds(), now: fixedClock(), retryDelayMs: 0 });
    await loop.send({ conversationId: "c1", userInput: "Time?" });
    await loop.send({ conversationId: "c1", userInput: "And now?" });

    const assistants = builds.slice(1).map((items) => items.find((item) => item.type === "assistant" && (item.toolCalls?.length ?? 0) > 0));
    expect(assistants).toHaveLength(2);
    expect(assistants[0]).toMatchObject({ metadata: { extra: { openaiResponses } } });
    expect(assistants[0]).not.toHaveProperty("reasoning");
    // A log that only grew gives back the same objects, so the renderers' per-item caches hold.
    expect(assistants[1]).toBe(assistants[0]);
    expect((await store.load("c1")).messages[1]).not.toHaveProperty("reasoning");
  });
});
