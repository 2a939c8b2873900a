// What a loop learns from the usage its calls report: the estimate in the result, calibration of
// approximations only, and reports that teach nothing.
import { describe, expect, it, test } from "vitest";
import { tempStore } from "../__fixtures__/loop-fixtures.js";
import { ChatLoop } from "../chat/chat-loop.js";
import type { LoopEvent } from "./loop-events.js";
import { type ScriptEntry, scriptedModel } from "../model/scripted-model.js";

/** A model that reports `inputTokens(count)` for each request, where count is what the loop counted for it. */
function reporting(model: string, inputTokens: (counted: number) => number) {
  const counted: number[] = [];
  const answer: ScriptEntry = () => ({ text: "Noted.", usage: { inputTokens: inputTokens(counted.at(-1)!), outputTokens: 2 } });
  return { model: scriptedModel([answer], { model, repeatLast: true }), counted };
}

async function conversation(model: string, inputTokens: (counted: number) => number, turns: number) {
  const { store } = tempStore();
  const { model: adapter, counted } = reporting(model, inputTokens);
  const loop = new ChatLoop({ model: adapter, store });
  const results = [];
  for (let turn = 0; turn < turns; turn++) {
    results.push(await loop.send({ conversationId: "c1", userInput: `Note number ${turn}: the quarterly figures are in the shared folder.`, onEvent: (event) => event.type === "built" && counted.push(event.result.tokenCount) }));
  }
  return { results, store };
}

describe("the token estimate", () => {
  it("an exact tokenizer is never calibrated, whatever the provider reports", async () => {
    const { results } = await conversation("gpt-4o", (counted) => counted * 2, 3);
    expect(results.map((result) => result.tokenizer)).toEqual([
      { name: "o200k_base", exact: true },
      { name: "o200k_base", exact: true },
      { name: "o200k_base", exact: true },
    ]);
    for (const result of results) {
      const counted = result.lastBuild!.tokenCount;
      expect(result.tokenEstimate).toEqual({ counted, reported: counted * 2, exact: true, offBy: counted, ratio: 2 });
    }
  });

  it("an approximation learns: the provider counts 20% fewer, and the count moves toward it by half the gap per call", async () => {
    const { results } = await conversation("claude-sonnet-4", (counted) => Math.round(counted * 0.8), 4);
    const factors = results.map((result) => result.tokenizer!.factor!);
    // The count has the 10% margin on top: 80% of it is 1.2 × 0.8 × 1.1 = 1.056 provider tokens per o200k token; half the way there.
    expect(factors[0]).toBeCloseTo(1.2 + (1.056 - 1.2) / 2, 2);
    for (let index = 1; index < factors.length; index++) expect(factors[index]).toBeLessThan(factors[index - 1]!);
    expect(results.every((result) => result.tokenizer!.exact === false && result.tokenEstimate!.exact === false)).toBe(true);
  });

  it("an approximation that under-counts is corrected at once", async () => {
    const { results } = await conversation("claude-sonnet-4", (counted) => Math.round(counted * 1.5), 1);
    expect(results[0]!.tokenizer!.factor).toBeCloseTo(1.2 * 1.5 * 1.1, 2);
  });

  test.for([
    { name: "no usage reported", usage: undefined },
    { name: "0 input tokens (a server that does not count)", usage: { inputTokens: 0, outputTokens: 0 } },
  ])("$name: no estimate, nothing learnt", async ({ usage }) => {
    const model = scriptedModel([{ text: "Hi.", ...(usage === undefined ? {} : { usage }) }], { model: "claude-sonnet-4" });
    const result = await new ChatLoop({ model }).send({ userInput: "Hello" });
    expect(result.tokenEstimate).toBeUndefined();
    expect(result.tokenizer).toEqual({ name: 'o200k_base × 1.2 + 10% (approximation for "claude-sonnet-4")', exact: false, factor: 1.2 });
  });

  it("a report no tokenizer could explain (ten times the count) teaches nothing, and the answer is still persisted", async () => {
    const { results, store } = await conversation("claude-sonnet-4", (counted) => counted * 10, 2);
    expect(results.map((result) => [result.status, result.tokenizer!.factor, result.tokenEstimate!.ratio])).toEqual([
      ["completed", 1.2, 10],
      ["completed", 1.2, 10],
    ]);
    expect((await store.load("c1")).messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("each conversation learns on its own", async () => {
    const { store } = tempStore();
    const { model, counted } = reporting("claude-sonnet-4", (count) => Math.round(count * 0.6));
    const loop = new ChatLoop({ model, store });
    const onEvent = (event: LoopEvent) => event.type === "built" && counted.push(event.result.tokenCount);
    const first = await loop.send({ conversationId: "c1", userInput: "The figures are in the shared folder.", onEvent });
    const other = await loop.send({ conversationId: "c2", userInput: "The figures are in the shared folder.", onEvent });
    expect(first.tokenizer!.factor).not.toBe(1.2);
    expect(other.lastBuild!.tokenCount).toBe(first.lastBuild!.tokenCount);
  });
});
