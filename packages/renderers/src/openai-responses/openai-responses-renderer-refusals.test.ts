// What the Responses API would refuse in a request, and what the renderer sends instead: a
// max_output_tokens below 16, a prompt_cache_key over 64 characters, stored ids the API did not give
// (or gave in another form). Each build runs with validation "throw", so a request breaking a rule fails
// the test; and the count says when it is an estimate.
import { type BuildOptions, checkRules, createPipeline, fitPromptCacheKey, type ItemInput, type Tokenizer } from "@ctxpipe/core";
import { buildWith, wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { countOpenAIResponsesTokens } from "./count-openai-responses-tokens.js";
import { OpenAIResponsesRendererPlugin } from "./openai-responses-renderer-plugin.js";
import { openAIResponsesRules } from "./openai-responses-rules.js";

const renderer = "openai-responses" as const;
const hi: ItemInput[] = [{ id: "u", type: "user", text: "hello world" }];
const responses = (value: Record<string, unknown>) => ({ extra: { openaiResponses: value } });
const build = (items: ReadonlyArray<ItemInput>, options: BuildOptions<"openai-responses"> = {}, plugin = new OpenAIResponsesRendererPlugin()) =>
  buildWith([plugin], items, { renderer, model: "gpt-5.1", validation: "throw", ...options });

describe("max_output_tokens below the API's 16", () => {
  test.for([
    { reserve: 1, sent: 16 },
    { reserve: 10, sent: 16 },
    { reserve: 15, sent: 16 },
    { reserve: 16, sent: 16 },
    { reserve: 17, sent: 17 },
  ])("a reserve of $reserve sends $sent", async ({ reserve, sent }) => {
    const result = await build(hi, { maxTokens: 100_000, reserveOutputTokens: reserve });
    expect(result.request.max_output_tokens).toBe(sent);
    expect(result.report.violations).toEqual([]);
    const warned = result.report.warnings.filter((warning) => warning.includes("max_output_tokens"));
    if (reserve >= 16) expect(warned).toEqual([]);
    else
      expect(warned).toEqual([
        `[OpenAIResponsesRendererPlugin] reserveOutputTokens is ${reserve}, and the Responses API takes a max_output_tokens of 16 or more: 16 is sent, so the answer may use ${16 - reserve} tokens more than the reserve left for it`,
      ]);
  });

  test("a reserve given alone, with no window known, is raised the same way", async () => {
    const result = await build(hi, { reserveOutputTokens: 8 });
    expect(result.request.max_output_tokens).toBe(16);
  });

  test.for([1, 15])("the plugin's maxOutputTokens of %i is refused, naming the option", (maxOutputTokens) => {
    expect(() => new OpenAIResponsesRendererPlugin({ maxOutputTokens })).toThrow(expect.objectContaining({ name: "PluginOptionsError", message: expect.stringContaining("maxOutputTokens") }));
  });

  test("the plugin's maxOutputTokens of 16 is sent", async () => {
    expect((await build(hi, {}, new OpenAIResponsesRendererPlugin({ maxOutputTokens: 16 }))).request.max_output_tokens).toBe(16);
  });
});

describe("prompt_cache_key over 64 characters", () => {
  // ChatLoop passes the conversation id, RunLoop "run-<id>": ids an application chose, of any length.
  const conversation = "workspace-7f3c9a2e/customer-support/conversation-0d5e1a7c-33f1-4f4e-9a52-8f0c2b7d9e11";

  test.for([
    { case: "from the build option", options: { promptCacheKey: conversation }, plugin: {} },
    { case: "from the plugin option", options: {}, plugin: { promptCacheKey: conversation } },
    { case: "a run key", options: { promptCacheKey: `run-${conversation}` }, plugin: {} },
  ])("is sent shortened, breaking no rule: $case", async ({ options, plugin }) => {
    const key = options.promptCacheKey ?? plugin.promptCacheKey!;
    const result = await build(hi, options, new OpenAIResponsesRendererPlugin(plugin));
    expect(result.request.prompt_cache_key).toBe(fitPromptCacheKey(key));
    expect(result.request.prompt_cache_key).toHaveLength(64);
    expect(key.startsWith(result.request.prompt_cache_key!.slice(0, 47))).toBe(true);
    expect(checkRules(openAIResponsesRules, result.request)).toEqual([]);
  });

  test("is the same build after build, and apart from another long key with the same start", async () => {
    const first = await build(hi, { promptCacheKey: conversation });
    const again = await build(hi, { promptCacheKey: conversation });
    const other = await build(hi, { promptCacheKey: `${conversation}-retry` });
    expect(again.request.prompt_cache_key).toBe(first.request.prompt_cache_key);
    expect(other.request.prompt_cache_key).not.toBe(first.request.prompt_cache_key);
  });
});

describe("stored ids the API refuses", () => {
  const user: ItemInput = { id: "u", type: "user", text: "Go." };
  const next: ItemInput = { id: "u9", type: "user", text: "Next." };
  const reasoning = (id: unknown) => ({ type: "reasoning", id, summary: [{ type: "summary_text", text: "Plan." }], encrypted_content: "gAAAAB-a" });
  const call = { id: "c1", name: "run", arguments: '{"n":1}' };
  const result: ItemInput = { id: "t1", type: "tool-result", callId: "c1", output: "done" };
  const plainCall = { type: "function_call", call_id: "c1", name: "run", arguments: '{"n":1}' };
  const plainMessage = { type: "message", role: "assistant", content: "Done." };
  const longReasoningId = `rs_${"0a1b2c3d".repeat(52)}`.slice(0, 416);
  const uuid = "019f629b-43ee-7a82-acb1-3071dbffbdad";
  const withReasoning = (problem: string) => `its reasoning is not sent, nor the ids of its message and calls: the stored id ${problem} (the API refuses the request with it, and reasoning goes back only with its ids)`;

  test.for([
    {
      case: "a reasoning id of 416 characters",
      item: { text: "Done.", reasoning: [{ text: "Plan." }], metadata: responses({ sequence: [reasoning(longReasoningId), { type: "message", id: "msg_1" }] }) },
      input: [plainMessage],
      repaired: withReasoning(`"${longReasoningId.slice(0, 60)}…" of its reasoning item is 416 characters long, and the API takes at most 64`),
    },
    {
      case: "the application's own UUID as a message id, no reasoning: no id goes without reasoning, so none is refused",
      item: { text: "Done.", metadata: responses({ sequence: [{ type: "message", id: uuid }] }) },
      input: [plainMessage],
    },
    {
      case: "a call id stored as the call's item id",
      item: { text: "", reasoning: [{ text: "Plan." }], toolCalls: [call], metadata: responses({ sequence: [reasoning("rs_1"), { type: "function_call", call_id: "c1", id: "call_c1" }] }) },
      input: [plainCall],
      repaired: withReasoning(`"call_c1" of its call "c1" does not begin with 'fc', as the ids the API gives these items do`),
    },
    {
      case: "a message id with other characters",
      item: { text: "Done.", reasoning: [{ text: "Plan." }], metadata: responses({ sequence: [reasoning("rs_1"), { type: "message", id: "msg_1.2" }] }) },
      input: [plainMessage],
      repaired: withReasoning(`"msg_1.2" of its message holds characters other than letters, digits, '_' and '-'`),
    },
    {
      case: "an empty message id, no reasoning",
      item: { text: "Done.", metadata: responses({ sequence: [{ type: "message", id: "" }] }) },
      input: [plainMessage],
    },
    {
      case: "a reasoning id that is not a string",
      item: { text: "Done.", reasoning: [{ text: "Plan." }], metadata: responses({ sequence: [reasoning(7), { type: "message", id: "msg_1" }] }) },
      input: [plainMessage],
      repaired: withReasoning("a number of its reasoning item is a number, not a string"),
    },
    {
      case: "a built-in call with an id over 64 characters: left out, and the reasoning before it with it",
      item: {
        text: "Done.",
        reasoning: [{ text: "Plan." }],
        metadata: responses({ sequence: [reasoning("rs_1"), { type: "web_search_call", id: `ws_${"9".repeat(70)}`, status: "completed" }, { type: "message", id: "msg_1" }] }),
      },
      input: [plainMessage],
      repaired: `its stored web_search_call item is not sent: its id "ws_${"9".repeat(57)}…" is 73 characters long, and the API takes at most 64`,
    },
    {
      case: "valid ids: the turn goes back as stored",
      item: { text: "Done.", reasoning: [{ text: "Plan." }], metadata: responses({ sequence: [reasoning("rs_1"), { type: "message", id: "msg_1" }] }) },
      input: [reasoning("rs_1"), { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "output_text", text: "Done.", annotations: [] }] }],
    },
  ] satisfies Array<{ case: string; item: Omit<Extract<ItemInput, { type: "assistant" }>, "id" | "type">; input: unknown[]; repaired?: string }>)(
    "$case",
    async ({ item, input, repaired }) => {
      const assistant = { id: "a", type: "assistant", ...item } as ItemInput;
      const built = await build([user, assistant, ...((item.toolCalls?.length ?? 0) > 0 ? [result] : []), next]);
      expect(built.request.input.slice(1, 1 + input.length)).toEqual(input);
      expect(checkRules(openAIResponsesRules, built.request)).toEqual([]);
      const entry = built.report.entries.find((candidate) => candidate.id === "a");
      if (repaired === undefined) expect(entry?.decision).toBe("kept");
      else expect(entry?.history.map((event) => event.reason)).toContain(repaired);
      expect(built.tokenCount).toBe(countOpenAIResponsesTokens(built.request, wordTokenizer));
    },
  );

  test("a stored item of another type before or after an item, with an id the API refuses, is left out and said so; the item is still sent", async () => {
    const built = await build([
      { id: "u1", type: "user", text: "Hi.", metadata: responses({ before: [{ type: "item_reference", id: "ref 1" }, { type: "item_reference", id: "ref_2" }] }) },
      { id: "a1", type: "assistant", text: "Hello.", metadata: responses({ after: [{ type: "compaction", id: "x".repeat(65), encrypted_content: "gAAAAB" }] }) },
      next,
    ]);
    expect(built.request.input).toEqual([
      { type: "item_reference", id: "ref_2" },
      { type: "message", role: "user", content: "Hi." },
      { type: "message", role: "assistant", content: "Hello." },
      { type: "message", role: "user", content: "Next." },
    ]);
    const reasons = (id: string) => built.report.entries.find((entry) => entry.id === id)?.history.map((event) => [event.decision, event.reason]);
    expect(reasons("u1")).toContainEqual(["repaired", `metadata.extra.openaiResponses.before[0] (item_reference) is not sent: its id "ref 1" holds characters other than letters, digits, '_' and '-'`]);
    expect(reasons("a1")).toContainEqual(["repaired", `metadata.extra.openaiResponses.after[0] (compaction) is not sent: its id "${"x".repeat(60)}…" is 65 characters long, and the API takes at most 64`]);
    expect(built.report.entries.find((entry) => entry.id === "u1")?.decision).toBe("repaired");
  });

  test("a dropped item still says which of the stored items around it were left out", async () => {
    const pipeline = createPipeline({ plugins: [new OpenAIResponsesRendererPlugin()], defaults: { filter: false, repairOrphans: false, validate: false } });
    const built = await pipeline.build(
      [user, { id: "th", type: "thinking", text: "hmm", metadata: responses({ before: [{ type: "compaction", id: "", encrypted_content: "gAAAAB" }] }) }, next],
      { renderer, tokenizer: wordTokenizer },
    );
    expect(built.request.input).toEqual([
      { type: "message", role: "user", content: "Go." },
      { type: "message", role: "user", content: "Next." },
    ]);
    const entry = built.report.entries.find((candidate) => candidate.id === "th");
    expect(entry).toMatchObject({ decision: "dropped", reason: "thinking items are not sent to the OpenAI Responses API" });
    expect(entry?.history.map((event) => event.reason)).toContain(`metadata.extra.openaiResponses.before[0] (compaction) is not sent: its id "" is empty`);
  });
});

describe("tokenCountExact", () => {
  const reasoningTurn: ItemInput[] = [
    { id: "u1", type: "user", text: "Why?" },
    {
      id: "a1",
      type: "assistant",
      text: "Because.",
      reasoning: [{ text: "Think." }],
      metadata: responses({ sequence: [{ type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Think." }], encrypted_content: "gAAAAB-long" }, { type: "message", id: "msg_1" }] }),
    },
    { id: "u2", type: "user", text: "And then?" },
  ];
  const inexact: Tokenizer = { ...wordTokenizer, name: "words, estimated", exact: false };

  test.for([
    { case: "plain messages and calls, an exact tokenizer", items: hi, tokenizer: wordTokenizer, exact: true },
    { case: "reasoning sent back (its encrypted content is not counted)", items: reasoningTurn, tokenizer: wordTokenizer, exact: false },
    {
      case: "the reasoning taken off by an earlier stage (none is sent)",
      items: reasoningTurn.map((item) => (item.id === "a1" ? { ...item, reasoning: [] } : item)),
      tokenizer: wordTokenizer,
      exact: true,
    },
    { case: "a stored compaction item (counted as its JSON)", items: [{ ...hi[0]!, metadata: responses({ before: [{ type: "compaction", encrypted_content: "gAAAAB" }] }) }], tokenizer: wordTokenizer, exact: false },
    { case: "an estimating tokenizer", items: hi, tokenizer: inexact, exact: false },
  ] satisfies Array<{ case: string; items: ItemInput[]; tokenizer: Tokenizer; exact: boolean }>)("$case: $exact", async ({ items, tokenizer, exact }) => {
    const built = await buildWith([new OpenAIResponsesRendererPlugin()], items, { renderer, tokenizer, validation: "throw" });
    expect(built.tokenCountExact).toBe(exact);
    expect(built.report.tokenizer.exact).toBe(tokenizer.exact);
  });
});
