// The loops key OpenAI's prompt cache by the conversation they send, so that every turn of one
// conversation is routed to the cache that holds its prefix.
import type { OpenAIChatRequest } from "@ctxpipe/core";
import { describe, expect, test } from "vitest";
import { counterIds, fixedClock, tempStore } from "../__fixtures__/loop-fixtures.js";
import { ChatLoop } from "../chat/chat-loop.js";
import { scriptedModel } from "../model/scripted-model.js";
import { RunLoop } from "../run/run-loop.js";
import type { WorkflowDefinition } from "../run/workflow-definition.js";

const keyOf = (model: ReturnType<typeof scriptedModel>, call: number) => (model.calls[call]!.request as OpenAIChatRequest).prompt_cache_key;

describe("prompt_cache_key", () => {
  test("ChatLoop sends the conversation id on every model call of a conversation", async () => {
    const model = scriptedModel([{ text: "Hello." }, { text: "Again." }]);
    const { store } = tempStore();
    const loop = new ChatLoop({ model, store, newId: counterIds(), now: fixedClock(), retryDelayMs: 0 });
    await loop.send({ conversationId: "c1", userInput: "Hi." });
    await loop.send({ conversationId: "c1", userInput: "Hi again." });
    expect([keyOf(model, 0), keyOf(model, 1)]).toEqual(["c1", "c1"]);
  });

  test("ChatLoop: a key in buildOptions wins; a call without a conversation sends none", async () => {
    const model = scriptedModel([{ text: "Hello." }, { text: "Hello." }]);
    const { store } = tempStore();
    const keyed = new ChatLoop({ model, store, newId: counterIds(), now: fixedClock(), retryDelayMs: 0, buildOptions: { promptCacheKey: "tenant-7" } });
    await keyed.send({ conversationId: "c1", userInput: "Hi." });
    await new ChatLoop({ model, newId: counterIds(), now: fixedClock(), retryDelayMs: 0 }).send({ userInput: "Hi." });
    expect(keyOf(model, 0)).toBe("tenant-7");
    expect(model.calls[1]!.request).not.toHaveProperty("prompt_cache_key");
  });

  test("RunLoop sends the run's log name", async () => {
    const workflow: WorkflowDefinition = { name: "Release", packageName: "ops-pack", steps: [{ id: "draft", name: "Draft notes", instruction: "Write the release notes." }], edges: [] };
    const model = scriptedModel([{ text: "Drafted." }]);
    const { store } = tempStore();
    await new RunLoop({ model, store, workflow, newId: counterIds(), now: fixedClock(), retryDelayMs: 0 }).continue({ runId: "r1", userInput: "Go" });
    expect(keyOf(model, 0)).toBe("run-r1");
  });
});
