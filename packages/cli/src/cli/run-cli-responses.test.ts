// `ctxpipe build` and `ctxpipe inspect` over a conversation stored as OpenAI Responses API items, and
// --provider openai-responses over stored messages: the output is the library's build, problems are
// named by line and stored id, and a conversation of the wrong shape is refused.
import { CompressionPlugin } from "@ctxpipe/compression";
import { createPipeline, importOpenAIResponsesItems, importStoredMessages } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin, GeminiRendererPlugin, OpenAIResponsesRendererPlugin } from "@ctxpipe/renderers";
import { TokenizerPlugin } from "@ctxpipe/tokenizers";
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_CONVERSATION } from "../__fixtures__/conversations.js";
import { jsonl, runInProcess, tempFiles } from "../__fixtures__/run-in-process.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function files(contents: Readonly<Record<string, string>>) {
  const made = await tempFiles(contents);
  cleanups.push(made.cleanup);
  return made;
}

/** A reasoning model's tool loop as the Responses API returns it, then the user's next question. */
const RESPONSES_CONVERSATION = [
  { type: "message", role: "user", content: [{ type: "input_text", text: "Weather in Paris and Rome?" }] },
  { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Two cities: two calls." }], encrypted_content: "gAAAA-1" },
  { type: "function_call", id: "fc_1", call_id: "call_p", name: "get_weather", arguments: '{"city":"Paris"}' },
  { type: "function_call", id: "fc_2", call_id: "call_r", name: "get_weather", arguments: '{"city":"Rome"}' },
  { type: "function_call_output", call_id: "call_p", output: "18C" },
  { type: "function_call_output", call_id: "call_r", output: "24C" },
  { type: "reasoning", id: "rs_2", summary: [{ type: "summary_text", text: "Both known." }], encrypted_content: "gAAAA-2" },
  { type: "message", id: "msg_2", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Paris 18C, Rome 24C.", annotations: [] }] },
  { type: "message", role: "user", content: "And tomorrow?" },
];

const library = createPipeline({
  plugins: [
    new TokenizerPlugin(),
    new OpenAIResponsesRendererPlugin(),
    new AnthropicMessagesRendererPlugin(),
    new GeminiRendererPlugin(),
    new CompressionPlugin({ strategies: ["clear-tool-results", "sliding-window"] }),
  ],
});
const BUDGET = { model: "gpt-4o", maxTokens: 128_000, reserveOutputTokens: 16_384 } as const;

describe("a conversation stored as Responses API items", () => {
  it.for(["openai-responses", "openai"])("--prompt-cache-key is sent as prompt_cache_key (--provider %s); without it none is sent", async (provider) => {
    const { path } = await files({ "c.jsonl": jsonl(RESPONSES_CONVERSATION) });
    const keyed = await runInProcess(["build", path("c.jsonl"), "--provider", provider, "--prompt-cache-key", "conversation-42"]);
    expect(keyed).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(keyed.stdout).request.prompt_cache_key).toBe("conversation-42");
    const plain = await runInProcess(["build", path("c.jsonl"), "--provider", provider]);
    expect(JSON.parse(plain.stdout).request).not.toHaveProperty("prompt_cache_key");
  });

  it("is read as such without being told, and --provider openai-responses sends it back as stored", async () => {
    const { path } = await files({ "c.jsonl": jsonl(RESPONSES_CONVERSATION) });
    const run = await runInProcess(["build", path("c.jsonl"), "--provider", "openai-responses", "--system", "Be brief."]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const output = JSON.parse(run.stdout);
    expect(output.request).toEqual({
      model: "gpt-4o",
      instructions: "Be brief.",
      // The user message of text parts only goes as a string; every other item as it was stored.
      input: [{ type: "message", role: "user", content: "Weather in Paris and Rome?" }, ...RESPONSES_CONVERSATION.slice(1)],
      max_output_tokens: 16_384,
    });
    const expected = await library.build(importOpenAIResponsesItems(RESPONSES_CONVERSATION), { ...BUDGET, renderer: "openai-responses", system: [{ id: "cli:system", text: "Be brief." }], order: "input" });
    expect(output.tokenCount).toBe(expected.tokenCount);
    // One item per message and output, one per assistant turn: ids name the turn's first record.
    expect(output.includedIds).toEqual(["item-0", "item-1", "item-4", "item-5", "item-6", "item-8"]);
  });

  it.each(["openai", "anthropic", "gemini", "xml"])("builds for --provider %s, every text and call sent", async (provider) => {
    const { path } = await files({ "c.json": JSON.stringify(RESPONSES_CONVERSATION) });
    const run = await runInProcess(["build", path("c.json"), "--provider", provider]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const request = JSON.stringify(JSON.parse(run.stdout).request);
    for (const text of ["Weather in Paris and Rome?", "get_weather", "Rome", "18C", "24C", "Paris 18C, Rome 24C.", "And tomorrow?"]) expect(request).toContain(text);
  });

  it("names the line and the stored id of a record it refuses", async () => {
    const broken = RESPONSES_CONVERSATION.map((record, index) => (index === 3 ? { ...record, name: undefined } : record));
    const { path } = await files({ "c.jsonl": `\n${jsonl(broken)}` });
    const run = await runInProcess(["build", path("c.jsonl")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`ctxpipe: ${path("c.jsonl")} line 5 (id "fc_2"), field name: a function_call needs the function name\n`);
  });

  it("inspect places each item at the line of its first record", async () => {
    const { path } = await files({ "c.jsonl": jsonl(RESPONSES_CONVERSATION) });
    const run = await runInProcess(["inspect", path("c.jsonl"), "--provider", "openai-responses", "--all"], { columns: 160 });
    expect(run.code).toBe(0);
    const rows = run.stdout.split("\n").filter((line) => /^ {2}line \d+ {2}item-\d+/.test(line));
    expect(rows.map((row) => row.trim().split(/\s+/).slice(0, 4).join(" "))).toEqual([
      "line 1 item-0 user",
      "line 2 item-1 assistant",
      "line 5 item-4 tool-result",
      "line 6 item-5 tool-result",
      "line 7 item-6 assistant",
      "line 9 item-8 user",
    ]);
  });

  it("refuses a conversation that mixes stored messages and Responses items", async () => {
    const { path } = await files({ "c.jsonl": jsonl([...AGENT_CONVERSATION, RESPONSES_CONVERSATION[2]]) });
    const run = await runInProcess(["build", path("c.jsonl")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `ctxpipe: ${path("c.jsonl")} line ${AGENT_CONVERSATION.length + 1} (id "fc_1"), field type: a Responses API item (type "function_call"), but line 2 is a stored message (a "tool_calls" field): a conversation is read in one shape, stored messages or Responses API items, not both\n`,
    );
  });

  it("refuses a shape given by name that the records contradict", async () => {
    const { path } = await files({ "stored.jsonl": jsonl(AGENT_CONVERSATION), "responses.jsonl": jsonl(RESPONSES_CONVERSATION) });
    const asResponses = await runInProcess(["build", path("stored.jsonl"), "--input-shape", "openai-responses"]);
    expect(asResponses.code).toBe(2);
    expect(asResponses.stderr.split("\n")[0]).toBe(
      `ctxpipe: ${path("stored.jsonl")} line 2 (id "a1"), field tool_calls: a "tool_calls" field is a stored message's, not a Responses API item's (--input-shape openai-responses): there a call is a function_call item and its answer a function_call_output item`,
    );
    const asStored = await runInProcess(["build", path("responses.jsonl"), "--input-shape", "stored"]);
    expect(asStored.code).toBe(2);
    expect(asStored.stderr.split("\n")[0]).toBe(
      `ctxpipe: ${path("responses.jsonl")} line 2 (id "rs_1"), field type: type "reasoning" is a Responses API item, not a stored message (--input-shape stored): read the conversation with --input-shape openai-responses`,
    );
  });

  it("--input-shape openai-responses reads plain role/content messages without ids, which stored messages must have", async () => {
    const plain = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
      { role: "user", content: "bye" },
    ];
    const { path } = await files({ "c.jsonl": jsonl(plain) });
    const auto = await runInProcess(["build", path("c.jsonl"), "--provider", "openai-responses"]);
    expect(auto.code).toBe(2);
    expect(auto.stderr.split("\n")[0]).toBe(`ctxpipe: ${path("c.jsonl")} line 1, field id: a stored message needs an id`);
    const named = await runInProcess(["build", path("c.jsonl"), "--provider", "openai-responses", "--input-shape", "openai-responses"]);
    expect(named.code).toBe(0);
    const output = JSON.parse(named.stdout);
    expect(output.request.input).toEqual(plain.map((message) => ({ type: "message", ...message })));
    expect(output.includedIds).toEqual(["item-0", "item-1", "item-2"]);
  });
});

describe("--provider openai-responses over stored messages", () => {
  it("prints the Responses request body, equal to the library's build", async () => {
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION) });
    const run = await runInProcess(["build", path("c.jsonl"), "--provider", "openai-responses", "--system", "Be brief."]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const output = JSON.parse(run.stdout);
    expect(Object.keys(output.request)).toEqual(["model", "instructions", "input", "max_output_tokens"]);
    const expected = await library.build(importStoredMessages(AGENT_CONVERSATION), { ...BUDGET, renderer: "openai-responses", system: [{ id: "cli:system", text: "Be brief." }] });
    expect(output.request).toEqual(expected.request);
    expect(output.tokenCount).toBe(expected.tokenCount);
  });
});
