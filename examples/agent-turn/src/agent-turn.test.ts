// Runs the guide's turn with both SDKs against the local provider server and checks what the guide says:
// every request is valid and within budget, compression made summary records that the next turn applied
// instead of summarizing again, the current loop is sent as it is, and report.cache says what the
// provider's prompt cache could reuse.
import Anthropic from "@anthropic-ai/sdk";
import { checkRules, countOpenAIChatTokens, type OpenAIChatRequest, openAIChatRules } from "@ctxpipe/core";
import { type AnthropicMessagesRequest, anthropicMessagesRules } from "@ctxpipe/renderers";
import { getEncoding } from "@ctxpipe/tokenizers";
import OpenAI from "openai";
import { beforeAll, describe, expect, test } from "vitest";
import { CLAUDE_MODEL } from "./anthropic-turn.js";
import { budgetFor, REPLY_TOKENS } from "./budget.js";
import { OPENAI_MODEL } from "./openai-turn.js";
import { createAgentPipeline } from "./pipeline.js";
import { type Provider, startProviderServer } from "./provider-server.js";
import { CONTEXT_LIMIT, type ExampleRun, type ProviderRun, runExample, USER_MESSAGES } from "./run-example.js";
import { runTool } from "./tools.js";

let example: ExampleRun;
const run = (provider: Provider): ProviderRun => example.runs.find((candidate) => candidate.provider === provider)!;
/** What the server received for a provider's turns, in order (summary requests left out). */
const turnRequests = (provider: Provider) => example.server.received.filter((request) => request.provider === provider && request.kind === "turn");

beforeAll(async () => {
  example = await runExample({ quiet: true });
}, 60_000);

test("the budget comes from the model registry, reply tokens reserved, capped by the context limit", async () => {
  expect(budgetFor("gpt-4o", REPLY_TOKENS)).toEqual({ maxTokens: 128_000, reserveOutputTokens: 2_048 });
  expect(budgetFor("gpt-4o", 50_000)).toEqual({ maxTokens: 128_000, reserveOutputTokens: 16_384 }); // gpt-4o replies with at most 16,384
  expect(budgetFor("gpt-5", 16_384)).toEqual({ maxTokens: 272_000 + 16_384, reserveOutputTokens: 16_384 }); // GPT-5 caps the prompt at 272,000
  expect(budgetFor(CLAUDE_MODEL, REPLY_TOKENS, CONTEXT_LIMIT)).toEqual({ maxTokens: CONTEXT_LIMIT, reserveOutputTokens: REPLY_TOKENS });
  // Without a cap, reserveOutputTokens alone gives the same budget: TokenizerPlugin knows the window from the same registry.
  const pipeline = createAgentPipeline(() => "unused");
  for (const model of ["gpt-4o", "gpt-5", CLAUDE_MODEL]) {
    const result = await pipeline.build([{ id: "u1", type: "user", text: "hi" }], { model, reserveOutputTokens: REPLY_TOKENS });
    expect(result.report.budget, model).toMatchObject(budgetFor(model, REPLY_TOKENS));
  }
});

test("the server refused nothing: every request was well-formed for its provider", () => {
  expect(example.server.problems).toEqual([]);
  expect(example.server.received.length).toBeGreaterThan(8);
});

describe.for(["openai", "anthropic"] as const)("%s", (provider) => {
  const model = provider === "openai" ? OPENAI_MODEL : CLAUDE_MODEL;
  const available = CONTEXT_LIMIT - REPLY_TOKENS;

  test("each turn is a tool call, the tool's result, then the answer", () => {
    const { turns } = run(provider);
    expect(turns).toHaveLength(2);
    expect(turns.map((turn) => turn.calls.map((call) => call.toolCalls))).toEqual([
      [['run_tests({"package":"ledger"})'], []],
      [['read_file({"path":"src/rounding.ts"})'], []],
    ]);
    expect(turns[0]!.answer).toContain("rounding of negative amounts: expected -2, got -3");
  });

  test("the server received exactly what ctxpipe built, and it fits the budget", () => {
    const calls = run(provider).turns.flatMap((turn) => turn.calls);
    const received = turnRequests(provider);
    expect(received).toHaveLength(calls.length);
    calls.forEach(({ build }, index) => {
      const body = received[index]!.body;
      expect(build.report.budget).toMatchObject({ maxTokens: CONTEXT_LIMIT, reserveOutputTokens: REPLY_TOKENS, available });
      expect(build.tokenCount).toBeLessThanOrEqual(available);
      if (provider === "openai") {
        expect(body).toEqual({ ...(build.request as OpenAIChatRequest), model, max_completion_tokens: REPLY_TOKENS });
        // Counted again on what arrived, the way OpenAI counts: exact, and the same figure.
        expect(countOpenAIChatTokens(body as unknown as OpenAIChatRequest, getEncoding("o200k_base"))).toBe(build.tokenCount);
        expect(build.tokenCountExact).toBe(true);
      } else {
        expect(body).toEqual({ ...(build.request as AnthropicMessagesRequest), model, cache_control: { type: "ephemeral" } });
        expect(body.max_tokens).toBe(REPLY_TOKENS);
        expect(build.tokenCountExact).toBe(false);
      }
    });
  });

  test("ctxpipe's own rule tables find nothing wrong in what the server received either", () => {
    for (const { body } of turnRequests(provider)) {
      const violations = provider === "openai" ? checkRules(openAIChatRules, body, { model }) : checkRules(anthropicMessagesRules, body, { model });
      expect(violations).toEqual([]);
    }
  });

  test("turn 1 compressed and made summary records; they were persisted and turn 2 applied them without summarizing again", () => {
    const { turns, storedRecordIds } = run(provider);
    const made = turns[0]!.calls.flatMap((call) => call.records.map((record) => record.id));
    expect(made.length).toBeGreaterThan(0);
    expect(storedRecordIds[0]).toEqual(made);
    // The newest record of turn 1 covers the others (an earlier one is rolled into it).
    const newest = made.at(-1)!;
    const next = turns[1]!.calls[0]!;
    expect(next.records).toEqual([]);
    expect(next.build.report.compression?.appliedSummaries).toEqual([newest]);
    const summarized = next.build.report.entries.filter((entry) => entry.decision === "summarized");
    expect(summarized.length).toBeGreaterThan(0);
    for (const entry of summarized) expect(entry).toMatchObject({ plugin: "apply-summaries", relatedId: newest });
    // The summary is sent: as a system message after the system prompt (OpenAI), or joined to the system (Anthropic).
    const summary = turns[0]!.calls.flatMap((call) => call.records).at(-1)!.summary;
    const request = next.build.request as { messages: Array<{ content: unknown }>; system?: unknown };
    expect(JSON.stringify(provider === "openai" ? request.messages[1] : request.system)).toContain(JSON.stringify(summary).slice(1, 40));
  });

  test("the current loop is sent as it is: the user's message and the full tool results of this turn", async () => {
    for (const [index, turn] of run(provider).turns.entries()) {
      const last = turn.calls.at(-1)!;
      const { output } = await runTool(index === 0 ? "run_tests" : "read_file", index === 0 ? '{"package":"ledger"}' : '{"path":"src/rounding.ts"}');
      const sent = JSON.stringify(last.build.request);
      expect(sent).toContain(JSON.stringify(USER_MESSAGES[index]!).slice(1, -1));
      expect(sent).toContain(JSON.stringify(output).slice(1, -1));
      const changed = last.build.report.entries.filter((entry) => entry.decision !== "kept" && entry.decision !== "merged");
      // Everything compression touched is older than the turn: none of it is this turn's text.
      for (const entry of changed) expect(entry.id).toMatch(/^[uatr]\d\d$/);
    }
  });

  test("report.cache says where each request stops matching the previous one, as the provider saw it", () => {
    const calls = run(provider).turns.flatMap((turn) => turn.calls);
    const caches = calls.map(({ build: { report } }) => [report.cache.compared, report.cache.breaksAt, report.cache.sameMessages === report.cache.previousMessages]);
    // The first call of each conversation compresses (it summarizes); every later request starts with the
    // whole previous one, the persisted summary applied again without a summarizer call.
    expect(caches).toEqual([[false, undefined, true], [true, undefined, true], [true, undefined, true], [true, undefined, true]]);
    // The server compares each request with those it received before: the same prefix.
    const received = turnRequests(provider);
    calls.forEach(({ build: { report } }, index) => {
      if (!report.cache.compared) return;
      expect(received[index]!.cachedMessages, `call ${index + 1}`).toBe(report.cache.sameMessages);
    });
  });
});

test("the server answers a malformed request with HTTP 400, as the provider would", async () => {
  const server = await startProviderServer({ quiet: true });
  try {
    const openai = new OpenAI({ apiKey: "local", baseURL: `${server.url}/v1`, maxRetries: 0 });
    const orphan = openai.chat.completions.create({
      model: OPENAI_MODEL,
      messages: [
        { role: "user", content: "hi" },
        { role: "tool", tool_call_id: "call_9", content: "42" },
      ],
    });
    await expect(orphan).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    const anthropic = new Anthropic({ apiKey: "local", baseURL: server.url, maxRetries: 0 });
    const twice = anthropic.messages.create({
      model: CLAUDE_MODEL,
      max_tokens: 100,
      messages: [
        { role: "user", content: "hi" },
        { role: "user", content: "again" },
      ],
    });
    await expect(twice).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    expect(server.problems).toEqual([
      'openai: messages[1]: tool result "call_9" does not answer a call of the assistant message before it',
      "anthropic: messages[1].role: roles must alternate starting with user; expected assistant, got user",
    ]);
  } finally {
    await server.close();
  }
});
