import { checkRules, createPipeline, type ItemInput, type Tokenizer } from "@ctxpipe/core";
import { buildWith, everyItemTypeFixture, toolLoopFixture, wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { countGeminiTokens, GEMINI_TOKENS_PER_CONTENT } from "./count-gemini-tokens.js";
import { GeminiRendererPlugin } from "./gemini-renderer-plugin.js";
import { geminiRules } from "./gemini-rules.js";

const gemini = [new GeminiRendererPlugin()];

/** A conversation with a summary in the middle and a tool result followed by the user's next words. */
function midSummaryFixture(): ItemInput[] {
  return [
    { id: "u1", type: "user", text: "Set up the project." },
    { id: "a1", type: "assistant", text: "Done." },
    { id: "summary", type: "summary", text: "The user and the assistant set up a TypeScript project.", coveredIds: ["old1", "old2"] },
    { id: "u2", type: "user", text: "Run the tests." },
    { id: "a2", type: "assistant", text: "", toolCalls: [{ id: "call_t", name: "run_tests", arguments: "" }] },
    { id: "t1", type: "tool-result", callId: "call_t", toolName: "run_tests", output: "2 failed" },
    { id: "u3", type: "user", text: "Why did they fail?" },
  ];
}

const goldens = [
  { name: "every item type", items: everyItemTypeFixture, file: "every-item-type.gemini.json", options: { system: "You are a careful engineer.", model: "gemini-2.5-flash" } },
  { name: "a parallel tool loop", items: toolLoopFixture, file: "tool-loop.gemini.json", options: { system: "Be brief.", model: "gemini-3-pro-preview" } },
  { name: "a mid-conversation summary and text after a result", items: midSummaryFixture, file: "mid-summary.gemini.json", options: { system: "Be brief." } },
];

describe("GeminiRendererPlugin", () => {
  test.for(goldens)("renders $name (golden file), with no rule violation", async ({ items, file, options }) => {
    const result = await buildWith(gemini, items(), { renderer: "gemini", validation: "throw", ...options });
    await expect(`${JSON.stringify(result.request, null, 2)}\n`).toMatchFileSnapshot(`__fixtures__/${file}`);
    expect(checkRules(geminiRules, result.request, { model: options.model })).toEqual([]);
  });
});

describe("GeminiRendererPlugin with a cached content", () => {
  const tools = [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } }];
  const CACHE = "cachedContents/conversation-42";
  const DROPPED =
    "not sent: the request uses a cached content (cachedContent), which must hold the system instruction itself; Gemini refuses a request that sets both";

  test("renders a cached request (golden file): the cache named, the system instruction and tools left to it", async () => {
    const result = await buildWith([new GeminiRendererPlugin({ cachedContent: CACHE })], toolLoopFixture(), { renderer: "gemini", system: "Be brief.", model: "gemini-2.5-flash", tools, validation: "throw" });
    await expect(`${JSON.stringify(result.request, null, 2)}\n`).toMatchFileSnapshot("__fixtures__/tool-loop-cached.gemini.json");
    expect(result.request.config).toEqual({ cachedContent: CACHE });
    expect(checkRules(geminiRules, result.request, { model: "gemini-2.5-flash" })).toEqual([]);
    // Nothing is left out silently: the system prompt and the tools are named in a warning.
    expect(result.report.warnings).toContain(
      `[GeminiRendererPlugin] the system instruction and the 1 tool definitions not sent: the request uses the cached content ${CACHE}, which must hold them`,
    );
    // Only what is sent is counted.
    expect(result.tokenCount).toBe(countGeminiTokens(result.request, wordTokenizer));
  });

  test("a system prompt left to the cached content is named in a warning, and a later system message moved there is reported dropped", async () => {
    const items: ItemInput[] = [{ id: "s", type: "system", text: "Be brief." }, ...toolLoopFixture(), { id: "s2", type: "system", text: "Answer in French." }, { id: "u2", type: "user", text: "Go on." }];
    const result = await buildWith(gemini, items, { renderer: "gemini", cachedContent: CACHE, includeSystemPrompt: true });
    expect(JSON.stringify(result.request)).not.toContain("Be brief.");
    expect(JSON.stringify(result.request)).not.toContain("Answer in French.");
    expect(result.report.entries.find((entry) => entry.id === "s2")).toMatchObject({ decision: "dropped", stage: "render", reason: DROPPED });
    expect(result.report.warnings).toContain(`[GeminiRendererPlugin] the system instruction not sent: the request uses the cached content ${CACHE}, which must hold it`);
  });

  test("the build's cachedContent wins over the renderer's; without either, nothing is added", async () => {
    const plugin = new GeminiRendererPlugin({ cachedContent: "cachedContents/app-wide" });
    const fromBuild = await buildWith([plugin], toolLoopFixture(), { renderer: "gemini", cachedContent: CACHE });
    expect(fromBuild.request.config?.cachedContent).toBe(CACHE);
    const plain = await buildWith(gemini, toolLoopFixture(), { renderer: "gemini", system: "Be brief.", tools });
    expect(plain.request.config).not.toHaveProperty("cachedContent");
    expect(plain.request.config?.systemInstruction).toEqual({ parts: [{ text: "Be brief." }] });
  });

  test("a name that is not a cached content's is refused, naming the option", async () => {
    expect(() => new GeminiRendererPlugin({ cachedContent: "conversation-42" })).toThrow(/cachedContent/);
    await expect(buildWith(gemini, toolLoopFixture(), { renderer: "gemini", cachedContent: "my cache" })).rejects.toThrow(/cachedContent \(build option\)/);
  });

  test("report.cache counts what the next request can reuse: switching the cached content breaks at the system part", async () => {
    const pipeline = createPipeline({ plugins: [new GeminiRendererPlugin()] });
    const options = { renderer: "gemini", tokenizer: wordTokenizer } as const;
    const first = await pipeline.build(toolLoopFixture(), { ...options, cachedContent: CACHE });
    const same = await pipeline.build(toolLoopFixture(), { ...options, cachedContent: CACHE });
    expect(same.report.cache).toMatchObject({ breaksAt: undefined, reusableTokens: first.tokenCount, previousTokens: first.tokenCount });
    const other = await pipeline.build(toolLoopFixture(), { ...options, cachedContent: "cachedContents/other" });
    expect(other.report.cache).toMatchObject({ breaksAt: "system", reusableTokens: 0 });
  });
});

describe("GeminiRendererPlugin in the pipeline", () => {
  test("reports the thinking item it leaves out", async () => {
    const result = await buildWith(gemini, everyItemTypeFixture(), { renderer: "gemini" });
    expect(result.report.entries.find((entry) => entry.id === "thinking")).toMatchObject({
      decision: "dropped",
      stage: "render",
      plugin: "GeminiRendererPlugin",
      reason: "thinking items are not sent to Gemini generateContent",
    });
  });

  test("reports which content carries each item", async () => {
    const result = await buildWith(gemini, toolLoopFixture(), { renderer: "gemini", system: "Be brief." });
    expect(result.report.entries.map((entry) => [entry.id, entry.messageIndex])).toEqual([
      ["u1", 0],
      ["a1", 1],
      ["t1", 2],
      ["t2", 2],
      ["a2", 3],
    ]);
    // The system instruction counts as a message, as the system message does on OpenAI.
    expect(result.metadata.outputCount).toBe(result.request.contents.length + 1);
  });

  test("renders tool definitions as function declarations and counts them", async () => {
    const tools = [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }, { name: "now" }];
    const items: ItemInput[] = [{ id: "u", type: "user", text: "hi" }];
    const withTools = await buildWith(gemini, items, { renderer: "gemini", model: "gemini-2.5-flash", tools });
    const without = await buildWith(gemini, items, { renderer: "gemini", model: "gemini-2.5-flash" });
    expect(withTools.request).toEqual({
      model: "gemini-2.5-flash",
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      config: {
        tools: [
          {
            functionDeclarations: [
              { name: "read_file", description: "Read a file", parametersJsonSchema: tools[0]?.parameters },
              { name: "now", parametersJsonSchema: { type: "object", properties: {} } },
            ],
          },
        ],
      },
    });
    expect(withTools.tokenCount - without.tokenCount).toBe(wordTokenizer.count(JSON.stringify(withTools.request.config?.tools)));
  });

  test("counts text, a few tokens per content and the system instruction", async () => {
    const result = await buildWith(gemini, [{ id: "u", type: "user", text: "hello world" }], { renderer: "gemini", system: "Be brief." });
    // Two contents (the system instruction and the user's) of 5 tokens each, "Be brief." is 3 tokens, "hello world" 2.
    expect(GEMINI_TOKENS_PER_CONTENT).toBe(5);
    expect(result.tokenCount).toBe(5 + 3 + 5 + 2);
  });

  test.for(goldens)("the cached count of $name equals a fresh count of the request", async ({ items, options }) => {
    const result = await buildWith(gemini, items(), { renderer: "gemini", ...options });
    expect(result.tokenCount).toBe(countGeminiTokens(result.request, wordTokenizer));
  });

  test("a rebuild after one new message counts only that message", async () => {
    const counted: string[] = [];
    const recording: Tokenizer = {
      ...wordTokenizer,
      count(text) {
        counted.push(text);
        return wordTokenizer.count(text);
      },
    };
    const pipeline = createPipeline({ plugins: [new GeminiRendererPlugin()] });
    const history = [...toolLoopFixture(), { id: "u2", type: "user", text: "Thanks." } as const];
    const first = await pipeline.build(history, { renderer: "gemini", tokenizer: recording, system: "Be brief." });
    counted.length = 0;
    const next = await pipeline.build([...history, { id: "a3", type: "assistant", text: "Welcome." }, { id: "u3", type: "user", text: "one more thing" }], {
      renderer: "gemini",
      tokenizer: recording,
      system: "Be brief.",
    });
    // Once by the renderer, once by the report's per-item count: nothing from the history again.
    expect(counted.sort()).toEqual(["Welcome.", "one more thing"]);
    expect(next.tokenCount).toBe(first.tokenCount + (5 + 2) + (5 + 3));
  });

  test("a cached count follows an item whose rendering changes: a system item leading, then inside the conversation", async () => {
    const pipeline = createPipeline({ plugins: [new GeminiRendererPlugin({ laterSystemMessages: "user" })], defaults: { insertSystem: false } });
    const note: ItemInput = { id: "note", type: "system", text: "Answer in French." };
    const question: ItemInput = { id: "u", type: "user", text: "Hi." };
    const leading = await pipeline.build([note, question], { renderer: "gemini", tokenizer: wordTokenizer });
    const inside = await pipeline.build([question, { id: "a", type: "assistant", text: "Hello." }, note, { id: "u2", type: "user", text: "Again." }], { renderer: "gemini", tokenizer: wordTokenizer });
    expect(leading.request.config?.systemInstruction).toEqual({ parts: [{ text: "Answer in French." }] });
    expect(inside.request.contents[2]?.parts[0]).toEqual({ text: "[System message]\nAnswer in French." });
    expect(leading.tokenCount).toBe(countGeminiTokens(leading.request, wordTokenizer));
    expect(inside.tokenCount).toBe(countGeminiTokens(inside.request, wordTokenizer));
  });

  describe("stored system messages", () => {
    const prompt = { id: "s0", type: "system", text: "You are terse." } as const;
    const turn: ItemInput[] = [
      { id: "u1", type: "user", text: "Hi." },
      { id: "a1", type: "assistant", text: "Hello." },
    ];
    const french = { id: "s1", type: "system", text: "From now on answer in French." } as const;
    const newest = { id: "u2", type: "user", text: "How are you?" } as const;
    const contents = [
      { role: "user", parts: [{ text: "Hi." }] },
      { role: "model", parts: [{ text: "Hello." }] },
      { role: "user", parts: [{ text: "How are you?" }] },
    ];
    const SENT_AS_PROMPT = "sent as the system prompt: this build composes none, so the stored system messages are the prompt";
    const MOVED = "a system message inside the conversation, moved into the system instruction: Gemini takes system text only in systemInstruction";
    const REPLACED = "stored system message: this build composes its own system prompt, which replaces the stored ones";
    const NOT_INCLUDED = "stored system message: includeSystemPrompt is false, so no system prompt is sent";

    test.for([
      { case: "a leading one only: it is the system instruction", items: [prompt, ...turn, newest], build: {}, parts: ["You are terse."], decisions: [["s0", "merged", SENT_AS_PROMPT]] },
      {
        case: "a mid-conversation instruction: moved into the system instruction, after the leading one",
        items: [prompt, ...turn, french, newest],
        build: {},
        parts: ["You are terse.", "From now on answer in French."],
        decisions: [
          ["s0", "merged", SENT_AS_PROMPT],
          ["s1", "repaired", MOVED],
        ],
      },
      {
        case: "a composed prompt and stored ones: the composed prompt replaces them",
        items: [prompt, ...turn, french, newest],
        build: { system: "Be brief." },
        parts: ["Be brief."],
        decisions: [
          ["s0", "dropped", REPLACED],
          ["s1", "dropped", REPLACED],
        ],
      },
      {
        case: "includeSystemPrompt false: no system text at all",
        items: [prompt, ...turn, french, newest],
        build: { includeSystemPrompt: false },
        parts: [],
        decisions: [
          ["s0", "dropped", NOT_INCLUDED],
          ["s1", "dropped", NOT_INCLUDED],
        ],
      },
    ] satisfies Array<{ case: string; items: ItemInput[]; build: { system?: string; includeSystemPrompt?: boolean }; parts: string[]; decisions: string[][] }>)(
      "$case",
      async ({ items, build, parts, decisions }) => {
        const result = await buildWith(gemini, items, { renderer: "gemini", model: "gemini-2.5-flash", ...build });
        expect(result.request.config?.systemInstruction).toEqual(parts.length === 0 ? undefined : { parts: parts.map((text) => ({ text })) });
        expect(result.request.contents).toEqual(contents);
        expect(checkRules(geminiRules, result.request, { model: "gemini-2.5-flash" })).toEqual([]);
        expect(decisions.map(([id]) => result.report.entries.find((entry) => entry.id === id)).map((entry) => [entry?.id, entry?.decision, entry?.reason])).toEqual(decisions);
        expect(result.metadata.systemPromptIncluded).toBe(parts.length > 0);
      },
    );
  });

  test("violations of the rendered request reach the report, naming the item, the place and the provider's error", async () => {
    const pipeline = createPipeline({ plugins: [new GeminiRendererPlugin({ thoughtSignatures: "never" })], defaults: { repairOrphans: false } });
    const result = await pipeline.build(
      [
        { id: "u", type: "user", text: "Go." },
        { id: "a", type: "assistant", toolCalls: [{ id: "c1", name: "run", arguments: "{}" }] },
        { id: "t", type: "tool-result", callId: "c1", output: "done" },
      ],
      { renderer: "gemini", model: "gemini-3-flash", tokenizer: wordTokenizer, validation: "report" },
    );
    expect(result.report.violations).toContainEqual(
      expect.objectContaining({
        rule: "GEM-018",
        level: "error",
        phase: "request",
        itemId: "a",
        path: "contents[1].parts[0].thoughtSignature",
        messageIndex: 1,
        plugin: "GeminiRendererPlugin",
        providerError: expect.stringContaining("Function call is missing a thought_signature in functionCall parts."),
      }),
    );
  });

  test("options are checked when the plugin is created", () => {
    expect(() => new GeminiRendererPlugin({ thoughtSignatures: "sometimes" as "auto" })).toThrow(expect.objectContaining({ name: "PluginOptionsError" }));
    expect(() => new GeminiRendererPlugin({ unknown: true } as object)).toThrow(expect.objectContaining({ name: "PluginOptionsError" }));
  });
});
