// The middleware inside LangChain's real createAgent, with LangChain's fake chat model: a multi-step
// tool loop whose starting history is broken and over budget completes, and every request the model
// receives is valid (strict check, OpenAI and Anthropic rule tables) and within the budget.
import { PluginOptionsError } from "@ctxpipe/core";
import { createTokenizer, UnknownModelError } from "@ctxpipe/tokenizers";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { createAgent, fakeModel, MiddlewareError, tool } from "langchain";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { anthropicProblems, openAIProblems, strictRequestProblems } from "../__fixtures__/strict-request-check.js";
import { type CtxpipeModelCallBuild, ctxpipeMiddleware } from "./ctxpipe-middleware.js";

const gpt4o = createTokenizer("gpt-4o");

const getWeather = tool(async ({ city }) => `${city}: 18°C, cloudy`, {
  name: "get_weather",
  description: "The weather of a city",
  schema: z.object({ city: z.string() }),
});

/** A history as an app that crashed and retried would have stored it. */
function brokenHistory(): BaseMessage[] {
  const bigResult = `${"2026-11-25T10:00:00Z INFO request served in 12ms path=/api/items status=200\n".repeat(300)}`;
  return [
    new HumanMessage({ id: "h0", content: "Read the server log and tell me if anything is wrong." }),
    new AIMessage({ id: "a0", content: "", tool_calls: [{ id: "call_log", name: "read_log", args: { file: "server.log" } }] }),
    new ToolMessage({ id: "t0", tool_call_id: "call_log", content: bigResult }),
    // The same result written twice (a retried write, under another id).
    new ToolMessage({ id: "t0-again", tool_call_id: "call_log", content: bigResult }),
    new AIMessage({ id: "a1", content: "The log shows only successful requests." }),
    new HumanMessage({ id: "h1", content: "Now check the weather in Rome." }),
    // The stream was aborted: the call never got its result.
    new AIMessage({ id: "a2", content: "", tool_calls: [{ id: "call_aborted", name: "get_weather", args: { city: "Rome" } }] }),
    // A result whose call was lost.
    new ToolMessage({ id: "t-orphan", tool_call_id: "call_lost", content: "Berlin: 5°C" }),
    // A call whose arguments did not parse.
    new AIMessage({ id: "a3", content: "Let me try again.", invalid_tool_calls: [{ id: "call_bad", name: "get_weather", args: '{"city": "Ro', error: "Malformed args." }] }),
    new HumanMessage({ id: "h2", content: "What is the weather in Paris?" }),
  ];
}

const BUDGET = { model: "gpt-4o", maxTokens: 2_000, reserveOutputTokens: 500 } as const;

function scriptedModel() {
  return fakeModel()
    .respondWithTools([{ name: "get_weather", args: { city: "Paris" }, id: "call_paris" }])
    .respond(new AIMessage({ id: "final", content: "Paris: 18°C and cloudy." }));
}

describe("ctxpipeMiddleware in createAgent", () => {
  test("without it, the broken history reaches the model as it is: the checks fail", async () => {
    const model = scriptedModel();
    const agent = createAgent({ model, tools: [getWeather], systemPrompt: "Be brief." });
    await agent.invoke({ messages: brokenHistory() });
    const first = model.calls[0]!.messages;
    expect(strictRequestProblems(first, { budget: { maxTokens: BUDGET.maxTokens - BUDGET.reserveOutputTokens, tokenizer: gpt4o } })).toEqual(
      expect.arrayContaining([
        'messages[4]: the call "call_log" is answered again',
        'messages[7]: the call "call_aborted" is not answered right after it',
        'messages[8]: the tool message answers "call_lost", no call right before it',
        "messages[9]: carries invalid tool calls",
        expect.stringMatching(/tokens, over the budget of 1500$/),
      ]),
    );
    expect(openAIProblems(first)).not.toEqual([]);
    expect(anthropicProblems(first)).not.toEqual([]);
  });

  test("with it, the agent completes and every request is valid and within the budget; the state keeps the full history", async () => {
    const model = scriptedModel();
    const builds: CtxpipeModelCallBuild[] = [];
    const middleware = ctxpipeMiddleware({ ...BUDGET, onBuild: (build) => builds.push(build) });
    const agent = createAgent({ model, tools: [getWeather], middleware: [middleware], systemPrompt: "Be brief." });
    const history = brokenHistory();
    const result = await agent.invoke({ messages: history });

    expect(result.messages.at(-1)!.text).toBe("Paris: 18°C and cloudy.");
    expect(model.calls).toHaveLength(2);
    expect(builds).toHaveLength(2);
    for (const call of model.calls) {
      const sent = call.messages as BaseMessage[];
      expect(strictRequestProblems(sent, { budget: { maxTokens: BUDGET.maxTokens - BUDGET.reserveOutputTokens, tokenizer: gpt4o } })).toEqual([]);
      expect(openAIProblems(sent)).toEqual([]);
      expect(anthropicProblems(sent)).toEqual([]);
      expect(sent[0]!.type).toBe("system");
      expect(sent.at(-1)!.type === "human" || sent.at(-1)!.type === "tool").toBe(true);
    }
    // The second call carries the loop's own call and result.
    expect(model.calls[1]!.messages.slice(-2).map((message) => message.type)).toEqual(["ai", "tool"]);
    // What the model was told matches the build the caller sees.
    expect(middleware.lastBuild).toBe(builds[1]);
    const shape = (messages: BaseMessage[]) =>
      messages.map((message) => ({ type: message.type, id: message.id, text: message.text, calls: (message as AIMessage).tool_calls, answers: (message as ToolMessage).tool_call_id }));
    expect(shape([builds[1]!.systemMessage!, ...builds[1]!.messages])).toEqual(shape(model.calls[1]!.messages));
    expect(builds[1]!.tokenCountExact).toBe(true);
    expect(builds[1]!.tokenCount).toBeLessThanOrEqual(BUDGET.maxTokens - BUDGET.reserveOutputTokens);
    // The report says what happened to the broken parts.
    const decisions = new Map(builds[0]!.report.entries.map((entry) => [entry.id, entry.decision]));
    expect(decisions.get("t-orphan")).toBe("dropped");
    expect(decisions.get("t0-again")).toBe("dropped");
    // The agent's state is not rewritten: every stored message is still there, unchanged.
    expect(shape(result.messages.slice(0, history.length))).toEqual(shape(history));
  });

  test("the budget comes from the agent's model name when the options give none", async () => {
    const model = Object.assign(scriptedModel(), { model: "gpt-4o-mini" });
    const middleware = ctxpipeMiddleware();
    const agent = createAgent({ model, tools: [getWeather], middleware: [middleware] });
    await agent.invoke({ messages: [new HumanMessage("What is the weather in Paris?")] });
    expect(middleware.lastBuild).toMatchObject({ model: "gpt-4o-mini", maxTokens: 128_000, tokenCountExact: true });
  });

  test("a cut tool result can be read back with the retrieve_context tool the middleware registers", async () => {
    let handle: string | undefined;
    const model = fakeModel()
      .respond((messages) => {
        const marker = /call retrieve_context with (\{[^}]*\})/.exec(messages.map((message) => message.text).join("\n"));
        const args = JSON.parse(marker![1]!) as { handle: string; from: number; to: number };
        handle = args.handle;
        return new AIMessage({ id: "ask", content: "", tool_calls: [{ id: "call_read", name: "retrieve_context", args }] });
      })
      .respond(new AIMessage({ id: "final", content: "Read it." }));
    const middleware = ctxpipeMiddleware(BUDGET);
    const agent = createAgent({ model, tools: [getWeather], middleware: [middleware] });
    const history = brokenHistory();
    const result = await agent.invoke({ messages: history });
    const read = result.messages.find((message) => ToolMessage.isInstance(message) && message.tool_call_id === "call_read")!;
    // The text kept under the handle is the giant result as stored.
    const kept = { text: history[2]!.text };
    expect(read.text).toContain(handle!);
    // The reply: a line saying which range it holds, then exactly that range of the original.
    const [head, ...body] = read.text.split("\n");
    const range = /characters ([\d,]+) to ([\d,]+) of/.exec(head!)!.slice(1).map((figure) => Number(figure.replaceAll(",", "")));
    expect(body.join("\n")).toBe(kept.text.slice(range[0], range[1]));
    expect(range[1]! - range[0]!).toBeGreaterThan(0);
  });

  // LangChain wraps what a middleware throws in its MiddlewareError; ctxpipe's typed error is the cause.
  test.for<{ name: string; modelName: string | undefined; error: new (...args: never[]) => Error; message: RegExp }>([
    { name: "no model name and no maxTokens", modelName: undefined, error: PluginOptionsError, message: /no budget[\s\S]*→ at model/ },
    { name: "a model the registry does not know", modelName: "my-local-llm", error: UnknownModelError, message: /unknown model "my-local-llm" \(the agent's model/ },
  ])("$name is a typed error naming the option", async ({ modelName, error, message }) => {
    const model = modelName === undefined ? scriptedModel() : Object.assign(scriptedModel(), { model: modelName });
    const agent = createAgent({ model, tools: [getWeather], middleware: [ctxpipeMiddleware()] });
    const failure: unknown = await agent.invoke({ messages: [new HumanMessage("Hi")] }).catch((caught: unknown) => caught);
    expect(MiddlewareError.isInstance(failure)).toBe(true);
    const cause = (failure as Error).cause;
    expect(cause).toBeInstanceOf(error);
    expect((cause as Error).message).toMatch(message);
  });

  test("a model the registry does not know counts with o200k_base when maxTokens is given", async () => {
    const model = Object.assign(scriptedModel(), { model: "my-local-llm" });
    const middleware = ctxpipeMiddleware({ maxTokens: 8_000 });
    const agent = createAgent({ model, tools: [getWeather], middleware: [middleware] });
    await agent.invoke({ messages: [new HumanMessage("What is the weather in Paris?")] });
    expect(middleware.lastBuild).toMatchObject({ model: "my-local-llm", maxTokens: 8_000, tokenCountExact: false });
  });
});
