// Seed 002: compression runs before the loop and inside it every turn, on the history before the
// current loop only; summary records are persisted and applied by the next builds.
import type { OpenAIChatRequest } from "@ctxpipe/core";
import type { StoredMessage } from "@ctxpipe/store";
import { describe, expect, it } from "vitest";
import { counterIds, fixedClock, tempStore } from "../__fixtures__/loop-fixtures.js";
import { scriptedModel } from "../model/scripted-model.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { ChatLoop } from "./chat-loop.js";

const search: LoopTool = { name: "search", run: (args) => `Results for ${String(args.query)}: ${"lorem ipsum dolor sit amet ".repeat(40)}` };

function oldHistory(turns: number): StoredMessage[] {
  const messages: StoredMessage[] = [];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ id: `old-u${turn}`, role: "user", content: `Question ${turn}: ${"tell me about the weather in the mountains ".repeat(8)}`, createdAt: "2025-12-01T00:00:00.000Z" });
    messages.push({ id: `old-a${turn}`, role: "assistant", content: `Answer ${turn}: ${"the weather in the mountains changes quickly ".repeat(8)}`, createdAt: "2025-12-01T00:00:01.000Z" });
  }
  return messages;
}

describe("ChatLoop: compression inside the loop", () => {
  it("compresses the history, never the current loop, and persists the summary records it makes", async () => {
    const { store } = tempStore();
    await store.append("c1", oldHistory(30));
    let summarizerCalls = 0;
    const model = scriptedModel([{ toolCalls: [{ name: "search", arguments: { query: "snow" } }] }, { toolCalls: [{ name: "search", arguments: { query: "ice" } }] }, { text: "Done." }]);
    const loop = new ChatLoop({
      model,
      store,
      tools: [search],
      newId: counterIds("new-"),
      now: fixedClock(),
      buildOptions: { maxTokens: 4000 },
      compression: {
        strategies: ["summarize", "sliding-window"],
        minRecentMessages: 2,
        summarizer: ({ items }) => {
          summarizerCalls++;
          return `Summary of ${items.length} messages about mountain weather.`;
        },
      },
    });
    const builds: Array<{ included: ReadonlyArray<string>; tokens: number; triggered: boolean }> = [];
    const result = await loop.send({
      conversationId: "c1",
      userInput: "Plan my hike",
      onEvent: (event) => {
        if (event.type === "built") builds.push({ included: event.result.includedIds, tokens: event.result.tokenCount, triggered: event.result.report.compression?.triggered ?? false });
      },
    });
    expect(result.status).toBe("completed");
    expect(builds).toHaveLength(3);
    expect(builds[0]!.triggered).toBe(true);
    for (const build of builds) expect(build.tokens).toBeLessThanOrEqual(4000);
    // Everything this call persisted is in every later request: the current loop is protected.
    const current = result.persisted.map((message) => message.id);
    builds.forEach((build, turn) => {
      const persistedBefore = current.slice(0, 1 + 2 * turn);
      for (const id of persistedBefore) expect(build.included).toContain(id);
    });
    const { summaries } = await store.load("c1");
    expect(summaries.length).toBeGreaterThan(0);
    expect(summarizerCalls).toBe(summaries.length);
    // The model saw the summary in place of the old turns.
    const request = model.calls[0]!.request as OpenAIChatRequest;
    expect(JSON.stringify(request.messages)).toContain("about mountain weather");
    expect(JSON.stringify(request.messages)).not.toContain("Question 0:");
  });

  it("the next call applies the persisted records instead of summarizing again", async () => {
    const { store } = tempStore();
    await store.append("c1", oldHistory(30));
    let summarizerCalls = 0;
    const options = {
      store,
      buildOptions: { maxTokens: 4000 },
      compression: {
        strategies: ["summarize" as const],
        minRecentMessages: 2,
        summarizer: () => {
          summarizerCalls++;
          return "Mountain weather, summarised.";
        },
      },
    };
    await new ChatLoop({ ...options, model: scriptedModel([{ text: "First." }]) }).send({ conversationId: "c1", userInput: "One" });
    expect(summarizerCalls).toBe(1);
    const { summaries } = await store.load("c1");
    let applied: ReadonlyArray<string> = [];
    await new ChatLoop({ ...options, model: scriptedModel([{ text: "Second." }]) }).send({
      conversationId: "c1",
      userInput: "Two",
      onEvent: (event) => {
        if (event.type === "built") applied = event.result.report.compression?.appliedSummaries ?? [];
      },
    });
    expect(summarizerCalls).toBe(1);
    expect(applied).toEqual(summaries.map((record) => record.id));
  });
});
