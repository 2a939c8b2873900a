// Counting against real HTTP: the local server recounts each request it receives the way the provider
// would, and reports that count as usage, so the loop's counts are checked against the bytes sent.
import { countChatRequestTokens, estimatingTokenizer, type OpenAIChatRequest, type Tokenizer } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin } from "@ctxpipe/renderers";
import type { StoredMessage } from "@ctxpipe/store";
import { getEncoding } from "@ctxpipe/tokenizers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempStore } from "../__fixtures__/loop-fixtures.js";
import { ChatLoop } from "../chat/chat-loop.js";
import { anthropicModel } from "../model/anthropic-model.js";
import { json, type LocalModelServer, startLocalModelServer } from "../model/__fixtures__/local-model-server.js";
import { openAICompatibleModel } from "../model/openai-compatible-model.js";
import type { LoopTool } from "../tools/loop-tool.js";

const o200k = getEncoding("o200k_base");
const cl100k = getEncoding("cl100k_base");

let server: LocalModelServer;
beforeEach(async () => {
  server = await startLocalModelServer();
});
afterEach(async () => {
  await server.close();
});

const lookup: LoopTool = {
  name: "get_weather",
  description: "查询一个城市今天的天气和气温。",
  parameters: { type: "object", properties: { 城市: { type: "string", description: "城市名称，例如北京" } }, required: ["城市"] },
  run: () => "晴，21°C",
};

/** The tokens of an OpenAI Chat request as OpenAI counts them: messages, reply priming and the declared tools. */
function openAICount(body: unknown, tokenizer: Tokenizer): number {
  const request = body as OpenAIChatRequest;
  const tools = (request.tools ?? []).map(({ function: { name, description, parameters } }) => ({ name, ...(description === undefined ? {} : { description }), parameters }));
  return countChatRequestTokens(request, tokenizer, { tools });
}

/**
 * An OpenAI-compatible server that answers `text` and reports the request's count as prompt_tokens, as
 * OpenAI would (`scale` makes it a model whose own tokenizer counts more).
 */
function answerAsOpenAI(text: (index: number) => string, tokenizer: Tokenizer = o200k, scale = 1) {
  server.answer((response, request) => {
    const index = server.requests.indexOf(request);
    json(200, {
      id: `chatcmpl-${index}`,
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: text(index) }, finish_reason: "stop" }],
      usage: { prompt_tokens: Math.round(openAICount(request.body, tokenizer) * scale), completion_tokens: 9, total_tokens: 0 },
    })(response, request);
  });
}

const chineseTurns = [
  "你好！我们下周要在北京发布新版本，请帮我整理一下发布说明的结构，包括新功能、修复的问题和已知的限制。",
  "新功能有三个：对话压缩、精确的令牌计数，以及在工作流引擎中运行的模式。请为每一项写两句话的介绍，语气要正式一些。",
  "修复的问题包括：重试时不再把错误信息写入日志，流式输出断开后可以从序号继续。已知限制是 Claude 的计数仍然是估算值。请把这些加进去。",
];
const chineseAnswers = [
  "好的。发布说明可以分为四个部分：概述、新功能、问题修复和已知限制。每一部分用简短的标题开头，正文使用完整的句子。",
  "对话压缩：在对话变长时自动清理旧的工具结果并滑动窗口，让请求始终保持在模型的上下文范围内。精确计数：对 OpenAI 模型使用与服务端相同的编码，计数与账单一致。",
  "已加入。问题修复一节列出了重试与流式续传的改进；已知限制一节说明 Claude 与 Gemini 的计数为校准后的估算值，并会随每次调用报告的用量自动修正。",
];

describe("counting over HTTP", () => {
  it("gpt-4o, a Chinese conversation: every request counts exactly what the server received, tools and system prompt included", async () => {
    answerAsOpenAI((index) => chineseAnswers[index]!);
    const { store } = tempStore();
    const loop = new ChatLoop({ model: openAICompatibleModel({ model: "gpt-4o", baseURL: `${server.url}/v1`, stream: false, env: {} }), store, tools: [lookup] });

    const results = [];
    for (const userInput of chineseTurns) results.push(await loop.send({ conversationId: "zh", userInput, agent: { id: "writer", name: "撰稿人", role: "技术写作" } }));

    const recounts = server.requests.map((request) => openAICount(request.body, o200k));
    expect(results.map((result) => ({ exact: result.lastBuild!.tokenCountExact, counted: result.lastBuild!.tokenCount, estimate: result.tokenEstimate }))).toEqual(
      recounts.map((count) => ({ exact: true, counted: count, estimate: { counted: count, reported: count, exact: true, offBy: 0, ratio: 1 } })),
    );
    expect(results.at(-1)!.tokenizer).toEqual({ name: "o200k_base", exact: true });
    const last = server.requests.at(-1)!.body as OpenAIChatRequest;
    expect({ roles: last.messages.map((message) => message.role), tools: last.tools?.map((tool) => tool.function.name) }).toEqual({
      roles: ["system", "user", "assistant", "user", "assistant", "user"],
      tools: ["get_weather"],
    });
    // What the loop counted before (core's chars/4 estimate) is far below the real count of Chinese text.
    expect(openAICount(last, estimatingTokenizer)).toBeLessThan(recounts.at(-1)! * 0.75);
  });

  it("a Claude model over the Anthropic API: counts flagged inexact, and the estimate converges on the input_tokens reported", async () => {
    // The provider's own count: 95% of the request's o200k tokens (text, tool inputs and definitions) plus 4 per message.
    const claudeCount = (body: { system?: string; messages: Array<{ content: Array<{ text?: string }> }>; tools?: unknown[] }) => {
      const texts = [body.system ?? "", ...body.messages.flatMap((message) => message.content.map((block) => block.text ?? JSON.stringify(block)))];
      const base = texts.reduce((sum, text) => sum + o200k.count(text), 0) + (body.tools === undefined ? 0 : o200k.count(JSON.stringify(body.tools)));
      return Math.round(base * 0.95) + 4 * body.messages.length;
    };
    server.answer((response, request) => {
      const index = server.requests.indexOf(request);
      json(200, {
        id: `msg_${index}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-20250514",
        content: [{ type: "text", text: `Noted, item ${index + 1}. The release notes now cover it with a short paragraph and an example.` }],
        stop_reason: "end_turn",
        usage: { input_tokens: claudeCount(request.body as Parameters<typeof claudeCount>[0]), output_tokens: 20 },
      })(response, request);
    });
    const { store } = tempStore();
    const loop = new ChatLoop({
      model: anthropicModel({ model: "claude-sonnet-4-20250514", baseURL: server.url, apiKey: "k", stream: false, env: {} }),
      store,
      tools: [lookup],
      plugins: [new AnthropicMessagesRendererPlugin()],
    });

    const results = [];
    for (let turn = 0; turn < 6; turn++) {
      results.push(await loop.send({ conversationId: "c1", userInput: `Add item ${turn + 1} to the release notes: ${chineseTurns[turn % 3]}` }));
    }
    const estimates = results.map((result) => result.tokenEstimate!);
    expect(estimates.map((estimate) => [estimate.exact, estimate.reported])).toEqual(server.requests.map((request) => [false, claudeCount(request.body as Parameters<typeof claudeCount>[0])]));
    expect(results.map((result) => result.lastBuild!.tokenCountExact)).toEqual([false, false, false, false, false, false]);
    // Over-counted at first (factor 1.2 and a 10% margin for a provider at 0.95), less with every call.
    const misses = estimates.map((estimate) => Math.abs(estimate.offBy) / estimate.reported);
    expect(misses[0]).toBeGreaterThan(0.25);
    for (let index = 1; index < misses.length; index++) expect(misses[index]).toBeLessThan(misses[index - 1]!);
    expect(misses.at(-1)).toBeLessThan(0.15);
    const factors = results.map((result) => result.tokenizer!.factor!);
    // It stops moving once a step would change it by less than 0.5%, so cached counts stay valid.
    for (let index = 1; index < factors.length; index++) expect(factors[index]).toBeLessThanOrEqual(factors[index - 1]!);
    expect(factors.at(-1)).toBeLessThan(1);
    // The answer's room is the model's output limit, capped: Anthropic's max_tokens.
    expect((server.requests[0]!.body as { max_tokens: number }).max_tokens).toBe(32_000);
  });

  it("no maxTokens given: a long conversation is compressed to the model's default input budget; an explicit maxTokens wins", async () => {
    answerAsOpenAI(() => "Here is the summary you asked for.", cl100k);
    const { store } = tempStore();
    const paragraph = "The quarterly review covered revenue, hiring, the roadmap for the next two releases and the open incidents. ".repeat(30);
    const history: StoredMessage[] = Array.from({ length: 60 }, (_, index) => ({
      id: `h${index}`,
      role: index % 2 === 0 ? "user" : "assistant",
      content: `${index % 2 === 0 ? "Question" : "Answer"} ${index}: ${paragraph}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
    }));
    await store.append("long", history);
    const model = openAICompatibleModel({ model: "gpt-3.5-turbo", baseURL: `${server.url}/v1`, stream: false, env: {} });
    const historyTokens = history.reduce((sum, message) => sum + cl100k.count(message.content as string), 0);
    expect(historyTokens).toBeGreaterThan(2 * 12_289);

    const byDefault = await new ChatLoop({ model, store }).send({ conversationId: "long", userInput: "Summarize our reviews." });
    const sent = server.requests[0]!.body as OpenAIChatRequest;
    expect(byDefault.lastBuild!.report.budget).toEqual({ maxTokens: 16_385, reserveOutputTokens: 4_096, available: 12_289, used: openAICount(sent, cl100k), attempts: expect.any(Number) });
    expect(openAICount(sent, cl100k)).toBeLessThanOrEqual(12_289);
    expect(sent.messages.length).toBeLessThan(history.length);
    expect(sent.messages.at(-1)).toEqual({ role: "user", content: "USER_INPUT\nSummarize our reviews." });

    const explicit = await new ChatLoop({ model, store, buildOptions: { maxTokens: 6_000, reserveOutputTokens: 1_000 } }).send({ conversationId: "long", userInput: "Shorter, please." });
    const second = server.requests[1]!.body as OpenAIChatRequest;
    expect(explicit.lastBuild!.report.budget).toEqual({ maxTokens: 6_000, reserveOutputTokens: 1_000, available: 5_000, used: openAICount(second, cl100k), attempts: expect.any(Number) });
    expect(openAICount(second, cl100k)).toBeLessThanOrEqual(5_000);
  });

  it("an unknown model with tokenCounting.fallback: flagged inexact, within the budget given, its under-count corrected by the first report", async () => {
    // The local model's own tokenizer counts a quarter more than o200k_base.
    answerAsOpenAI(() => "Sure.", o200k, 1.25);
    const { store } = tempStore();
    const loop = new ChatLoop({
      model: openAICompatibleModel({ model: "llama-3-local", baseURL: `${server.url}/v1`, stream: false, env: {} }),
      store,
      tokenCounting: { fallback: "o200k_base" },
      buildOptions: { maxTokens: 32_768 },
    });
    const first = await loop.send({ conversationId: "c1", userInput: "Hello there." });
    const second = await loop.send({ conversationId: "c1", userInput: "And again." });
    const reported = server.requests.map((request) => Math.round(openAICount(request.body, o200k) * 1.25));
    expect({ exact: first.lastBuild!.tokenCountExact, budget: first.lastBuild!.report.budget, tokenizer: first.tokenizer }).toEqual({
      exact: false,
      budget: { maxTokens: 32_768, reserveOutputTokens: 8_192, available: 24_576, used: first.lastBuild!.tokenCount, attempts: 1 },
      tokenizer: { name: expect.stringMatching(/^o200k_base × 1\.2\d* \+ 10% \(fallback for "llama-3-local"\)$/), exact: false, factor: expect.closeTo(1.25, 1) },
    });
    // The first count (o200k and a 10% margin) was under the server's; after it, the count is above it by the margin.
    expect([first.tokenEstimate, second.tokenEstimate]).toMatchObject([
      { reported: reported[0], exact: false },
      { reported: reported[1], exact: false },
    ]);
    expect(first.tokenEstimate!.offBy).toBeGreaterThan(0);
    expect(second.tokenEstimate!.offBy).toBeLessThanOrEqual(0);
    expect(second.tokenEstimate!.ratio).toBeGreaterThan(1 / 1.12);
    expect(server.requests[0]!.body).toMatchObject({ model: "llama-3-local" });
  });
});
