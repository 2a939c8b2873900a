// Reuse across the store round trip: every turn loads the log again, and a log that only grew reaches
// the pipeline as the same item objects for the messages it already had, so nothing counted for them
// is counted again. Each test fails if the reuse silently stops.
import { type BuildOptions, type Item, type ItemInput, Pipeline, type Tokenizer } from "@ctxpipe/core";
import type { StoredMessage } from "@ctxpipe/store";
import { afterEach, describe, expect, test, vi } from "vitest";
import { counterIds, fixedClock, tempStore } from "../__fixtures__/loop-fixtures.js";
import { ChatLoop } from "../chat/chat-loop.js";
import { scriptedModel } from "../model/scripted-model.js";
import { RunLoop } from "../run/run-loop.js";
import type { LoopTool } from "../tools/loop-tool.js";

/** A tokenizer that records every text it counts. */
function countingTokenizer(): Tokenizer & { readonly counted: string[] } {
  const counted: string[] = [];
  return {
    specificationVersion: "v1",
    name: "counting",
    exact: true,
    counted,
    count: (text) => {
      counted.push(text);
      return Math.ceil(text.length / 4);
    },
  };
}

/** The items of every build the loops make (the default pipelines are Pipelines too); `onBuild` runs as each starts. */
function recordBuilds(onBuild?: () => void): Array<ReadonlyArray<ItemInput>> {
  const builds: Array<ReadonlyArray<ItemInput>> = [];
  const build = Pipeline.prototype.build;
  vi.spyOn(Pipeline.prototype, "build").mockImplementation(function (this: Pipeline, items: ReadonlyArray<ItemInput>, options?: BuildOptions) {
    onBuild?.();
    builds.push(items.slice());
    return build.call(this, items, options);
  } as typeof build);
  return builds;
}

afterEach(() => {
  vi.restoreAllMocks();
});

function history(turns: number): StoredMessage[] {
  return Array.from({ length: turns }, (_, turn) => [
    { id: `u${turn}`, role: "user" as const, content: `Question ${turn}: ${"why does the build fail on CI ".repeat(10)}` },
    { id: `a${turn}`, role: "assistant" as const, content: `Answer ${turn}: ${"the lockfile changed upstream ".repeat(10)}` },
  ]).flat();
}

const echo: LoopTool = { name: "echo", run: (args) => `echo ${JSON.stringify(args)}` };

describe("the loops reuse their work across the store round trip", () => {
  test("ChatLoop over a JsonlStore: the next send builds from the same item objects and counts only what is new", async () => {
    const { store } = tempStore();
    await store.append("c1", history(20));
    const tokenizer = countingTokenizer();
    const model = scriptedModel([{ toolCalls: [{ name: "echo", arguments: { n: 1 } }] }, { text: "First answer." }, { text: "Second answer." }]);
    const loop = new ChatLoop({ model, store, tools: [echo], newId: counterIds("new-"), now: fixedClock(), buildOptions: { tokenizer, maxTokens: 100_000 } });
    const builds = recordBuilds();

    await loop.send({ conversationId: "c1", userInput: "Look again" });
    const counted = tokenizer.counted.length;
    await loop.send({ conversationId: "c1", userInput: "And now?" });

    // Three builds: two turns of the first send (a tool call, then the answer) and one of the second.
    expect(builds.map((items) => items.length)).toStrictEqual([41, 43, 45]);
    const [first, second, third] = builds as [ItemInput[], ItemInput[], ItemInput[]];
    for (const [index, item] of first.entries()) expect(second[index]).toBe(item);
    for (const [index, item] of second.entries()) expect(third[index]).toBe(item);
    // The second send counted only what the log gained since the first send's last build: its answer and the new input.
    const texts = tokenizer.counted.slice(counted);
    expect(texts.some((text) => text.includes("And now?"))).toBe(true);
    expect(texts.some((text) => text.includes("First answer."))).toBe(true);
    expect(texts.filter((text) => text.includes("Question 0") || text.includes("Answer 19") || text.includes("Look again") || text.includes('echo {"n":1}'))).toStrictEqual([]);
  });

  test("RunLoop.continue over a JsonlStore: the next call builds from the same item objects", async () => {
    const { store } = tempStore();
    await store.append("run-r1", history(5));
    const model = scriptedModel([{ text: "Working on it." }, { text: "Still working." }]);
    const workflow = { name: "Fix", packageName: "ops", steps: [{ id: "fix", name: "Fix", instruction: "Fix the build." }], edges: [] };
    const loop = new RunLoop({ model, store, workflow, newId: counterIds("run-"), now: fixedClock() });
    const builds = recordBuilds();

    await loop.continue({ runId: "r1", userInput: "Start" });
    await loop.continue({ runId: "r1", userInput: "Go on" });

    expect(builds.map((items) => items.length)).toStrictEqual([11, 13]);
    const [first, second] = builds as [ItemInput[], ItemInput[]];
    for (const [index, item] of first.entries()) expect(second[index]).toBe(item);
  });

  test("ChatLoop without a conversation id: each turn of the call builds from the same item objects for what the call persisted", async () => {
    const tokenizer = countingTokenizer();
    const model = scriptedModel([{ toolCalls: [{ name: "echo", arguments: { n: 1 } }] }, { toolCalls: [{ name: "echo", arguments: { n: 2 } }] }, { text: "Done." }]);
    const loop = new ChatLoop({ model, tools: [echo], newId: counterIds("new-"), now: fixedClock(), buildOptions: { tokenizer } });
    const countedBefore: number[] = [];
    const builds = recordBuilds(() => countedBefore.push(tokenizer.counted.length));

    const result = await loop.send({ userInput: "Echo twice" });

    expect(result.status).toBe("completed");
    expect(builds.map((items) => items.length)).toStrictEqual([1, 3, 5]);
    for (const [turn, items] of builds.slice(1).entries()) {
      for (const [index, item] of builds[turn]!.entries()) expect(items[index]).toBe(item);
    }
    // Each text is counted by the first build that has it, and by no later one.
    const countedBy = (build: number) => tokenizer.counted.slice(countedBefore[build], countedBefore[build + 1]);
    const has = (texts: string[], part: string) => texts.some((text) => text.includes(part));
    expect([0, 1, 2].map((build) => [has(countedBy(build), "Echo twice"), has(countedBy(build), 'echo {"n":1}')])).toStrictEqual([
      [true, false],
      [false, true],
      [false, false],
    ]);
    // What the caller gets back is not frozen: the log keeps copies.
    expect(Object.isFrozen(result.persisted[0])).toBe(false);
  });

  test("once the conversation has offloaded text, the call does not ask the store again", async () => {
    const { store } = tempStore();
    await store.append("c1", history(1));
    await store.appendOffloaded("c1", [{ handle: "ctx_0123456789abcdef", itemId: "a0", text: "the whole text", createdAt: "2026-01-01T00:00:00.000Z" }]);
    const listed = vi.spyOn(store, "listOffloaded");
    const model = scriptedModel([{ toolCalls: [{ name: "echo", arguments: {} }] }, { toolCalls: [{ name: "echo", arguments: {} }] }, { text: "Done." }]);
    const loop = new ChatLoop({ model, store, tools: [echo], newId: counterIds("new-"), now: fixedClock() });

    const result = await loop.send({ conversationId: "c1", userInput: "Go" });

    expect(result.turns).toBe(3);
    expect(listed).toHaveBeenCalledTimes(1);
    // Every turn still offers retrieve_context.
    for (const call of model.calls) expect(JSON.stringify(call.request)).toContain("retrieve_context");
  });

  test("items shown for one call only go between the same objects, and the log's items are the same the next call", async () => {
    const { store } = tempStore();
    await store.append("c1", history(3));
    const model = scriptedModel([{ text: "One." }, { text: "Two." }]);
    const loop = new ChatLoop({ model, store, newId: counterIds("new-"), now: fixedClock() });
    const builds = recordBuilds();

    await loop.send({ conversationId: "c1", userInput: "With data", dataContext: { label: "sales", path: "sales.csv", preview: "a,b\n1,2" } });
    await loop.send({ conversationId: "c1", userInput: "Without" });

    const [first, second] = builds as [Item[], Item[]];
    expect(first.map((item) => item.id)).toStrictEqual(["u0", "a0", "u1", "a1", "u2", "a2", "new-1", expect.stringMatching(/^data-context-/)]);
    expect(second.map((item) => item.id)).toStrictEqual(["u0", "a0", "u1", "a1", "u2", "a2", "new-1", "new-3", "new-4"]);
    for (const [index, item] of first.slice(0, 7).entries()) expect(second[index]).toBe(item);
  });
});
