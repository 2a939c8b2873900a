// ctxpipe's count of a rendered OpenAI request against the prompt_tokens OpenAI reported for it: the
// two examples of OpenAI's cookbook ("How to count tokens with tiktoken", sections 6 and 7), whose
// counts were read from the API's usage for each model.
import { countOpenAIChatTokens, createPipeline, type OpenAIChatRequest } from "@ctxpipe/core";
import { describe, expect, test } from "vitest";
import { getEncoding } from "../index.js";

const namedExamples: OpenAIChatRequest = {
  messages: [
    { role: "system", content: "You are a helpful, pattern-following assistant that translates corporate jargon into plain English." },
    { role: "system", name: "example_user", content: "New synergies will help drive top-line growth." },
    { role: "system", name: "example_assistant", content: "Things working well together will increase revenue." },
    { role: "system", name: "example_user", content: "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage." },
    { role: "system", name: "example_assistant", content: "Let's talk later when we're less busy about how to do better." },
    { role: "user", content: "This late pivot means we don't have time to boil the ocean for the client deliverable." },
  ],
};

const weatherTool = {
  name: "get_current_weather",
  description: "Get the current weather in a given location",
  parameters: {
    type: "object",
    properties: {
      location: { type: "string", description: "The city and state, e.g. San Francisco, CA" },
      unit: { type: "string", description: "The unit of temperature to return", enum: ["celsius", "fahrenheit"] },
    },
    required: ["location"],
  },
};

const weatherQuestion: OpenAIChatRequest = {
  messages: [
    { role: "system", content: "You are a helpful assistant that can answer to questions about the weather." },
    { role: "user", content: "What's the weather like in San Francisco?" },
  ],
  tools: [{ type: "function", function: weatherTool }],
};

describe("OpenAI request accounting matches the prompt_tokens the API reported", () => {
  test.for([
    { encoding: "o200k_base", models: "gpt-4o, gpt-4o-mini", named: 124, tools: 101 },
    { encoding: "cl100k_base", models: "gpt-4, gpt-3.5-turbo", named: 129, tools: 105 },
  ] as const)("$encoding ($models): $named and $tools", ({ encoding, named, tools }) => {
    const tokenizer = getEncoding(encoding);
    expect(countOpenAIChatTokens(namedExamples, tokenizer)).toBe(named);
    expect(countOpenAIChatTokens(weatherQuestion, tokenizer)).toBe(tools);
  });

  test("a build renders the cookbook's tool example to the same count", async () => {
    const result = await createPipeline().build(
      [{ id: "u1", type: "user", text: "What's the weather like in San Francisco?" }],
      { model: "gpt-4o", tokenizer: getEncoding("o200k_base"), system: "You are a helpful assistant that can answer to questions about the weather.", tools: [weatherTool] },
    );
    expect(result.tokenCount).toBe(101);
    expect(result.tokenCountExact).toBe(true);
  });
});
