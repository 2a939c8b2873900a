// A reply's extra fields (the Responses adapter's reasoning items and item ids) are stored on the
// assistant message, and come back from the log in the item's metadata.extra for the next build.
import { importStoredMessages, type OpenAIChatRequest } from "@ctxpipe/core";
import { describe, expect, test } from "vitest";
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
});
