import { CtxpipeError, createPipeline, InsertSystemPlugin, type ItemInput, importMemoryChunks, importOpenAIMessages } from "@ctxpipe/core";
import { buildWith, conversationFixture, everyItemTypeFixture, toolLoopFixture, wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import type { ChunkRenderer } from "./chunk-renderer.js";
import { SYSTEM_CONTEXT_DEFAULT_PRIORITY } from "./chunk-renderers/system-chunk-renderer.js";
import { ChunkType } from "./chunk-type.js";
import { countXmlTokens } from "./count-xml-tokens.js";
import { memoryChunkOf } from "./memory-chunk-of.js";
import { renderXmlMessages } from "./render-xml-messages.js";
import { xmlElement } from "./xml-element.js";
import { XmlRendererPlugin } from "./xml-renderer-plugin.js";

const xml = (plugin = new XmlRendererPlugin()) => [new InsertSystemPlugin({ storedSystemMessages: "keep" }), plugin];

/** What the report says about each item, for the fields a test cares about. */
const decisions = (entries: ReadonlyArray<{ id: string; decision: string; stage: string; reason: string }>) =>
  Object.fromEntries(entries.map(({ id, decision, stage, reason }) => [id, `${decision} at ${stage}: ${reason}`]));

describe("XmlRendererPlugin", () => {
  test("merges consecutive items of one role into one message, and reports the message of each", async () => {
    const result = await buildWith(xml(), toolLoopFixture(), { renderer: "xml" });
    expect(result.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(result.report.entries.map((entry) => [entry.id, entry.messageIndex])).toEqual([
      ["u1", 0],
      ["a1", 1],
      ["t1", 2],
      ["t2", 2],
      ["a2", 3],
    ]);
    expect(result.metadata.outputCount).toBe(5);
  });

  test("renders a conversation imported from OpenAI messages", async () => {
    const items = importOpenAIMessages([
      { role: "user", content: "Weather in Paris?" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }] },
      { role: "tool", tool_call_id: "call_1", content: "18°C" },
      { role: "assistant", content: "18°C and sunny." },
      { role: "user", content: "Thanks!" },
    ]);
    const result = await buildWith(xml(), items, { renderer: "xml" });
    expect(result.request.messages).toEqual([
      { role: "user", content: '<user_message id="msg-0" role="user">\nWeather in Paris?\n</user_message>' },
      { role: "assistant", content: '<tool_call id="msg-1" action="tool_call" tool="weather" call_id="call_1" status="completed">\n{"city":"Paris"}\n</tool_call>' },
      { role: "user", content: '<tool_result id="msg-2" tool="weather" call_id="call_1" success="true">\n18°C\n</tool_result>' },
      { role: "assistant", content: '<assistant_response id="msg-3" role="assistant">\n18°C and sunny.\n</assistant_response>' },
      { role: "user", content: '<user_message id="msg-4" role="user">\nThanks!\n</user_message>' },
    ]);
  });

  test("sends the system prompt (seed 001's systemPrompt) as written, first", async () => {
    const system = "You are an expert developer.\n\n<task>\nFix the build\n</task>";
    const result = await buildWith([new XmlRendererPlugin()], conversationFixture(), { renderer: "xml", system });
    expect(result.request.messages[0]).toEqual({ role: "system", content: system });
    expect(result.metadata).toMatchObject({ systemPromptIncluded: true, systemPromptLength: system.length });
  });

  test("is deterministic", async () => {
    const first = await buildWith(xml(), everyItemTypeFixture(), { renderer: "xml", system: "S" });
    const second = await buildWith(xml(), everyItemTypeFixture(), { renderer: "xml", system: "S" });
    expect(JSON.stringify(second.request)).toBe(JSON.stringify(first.request));
  });
});

describe("seed 001's selection options", () => {
  const chunks = () =>
    importMemoryChunks([
      { id: "sys", type: "SYSTEM", content: "Context." },
      { id: "u", type: "AGENT", content: { role: "user", text: "Read a.txt." } },
      { id: "call", type: "WORKFLOW", content: { action: "tool_call", tool: "read_file", call_id: "c1", text: '{"path":"a.txt"}' } },
      { id: "result", type: "ENVIRONMENT", content: { source: "tool", call_id: "c1", text: "hello" } },
      { id: "done", type: "OUTPUT", content: { action: "task_completed", text: "Done." } },
      { id: "u2", type: "AGENT", content: { role: "user", text: "Thanks." } },
    ]);

  test.for([
    { name: "includeSystem: false", options: { includeSystem: false }, left: { sys: "dropped at render: includeSystem is false" } },
    { name: "includeEnvironment: false", options: { includeEnvironment: false }, left: { result: "dropped at render: includeEnvironment is false" } },
    { name: "excludeTypes", options: { excludeTypes: ["OUTPUT", "WORKFLOW"] as const }, left: { call: "dropped at render: excludeTypes has WORKFLOW", done: "dropped at render: excludeTypes has OUTPUT" } },
    {
      name: "includeOnlyChunkIds",
      options: { includeOnlyChunkIds: ["u", "u2"] },
      left: {
        sys: "dropped at render: not in includeOnlyChunkIds",
        call: "dropped at render: not in includeOnlyChunkIds",
        result: "dropped at render: not in includeOnlyChunkIds",
        done: "dropped at render: not in includeOnlyChunkIds",
      },
    },
  ])("$name leaves those chunks out, reported, and out of excludedIds' complement", async ({ options, left }) => {
    for (const [plugin, build] of [
      [new XmlRendererPlugin(options), {}],
      [new XmlRendererPlugin(), { xml: options }],
    ] as const) {
      const result = await buildWith(xml(plugin), chunks(), { renderer: "xml", ...build });
      const notKept = result.report.entries.filter((entry) => entry.decision !== "kept");
      expect(decisions(notKept)).toEqual(left);
      expect(result.excludedIds).toEqual(Object.keys(left));
      const sent = result.request.messages.map((message) => message.content).join("\n");
      for (const id of Object.keys(left)) expect(sent).not.toContain(`id="${id}"`);
      for (const id of result.includedIds) expect(sent).toContain(`id="${id}"`);
    }
  });

  test("a per-build option wins over the plugin's, field by field", async () => {
    const plugin = new XmlRendererPlugin({ includeEnvironment: false, excludeTypes: ["OUTPUT"] });
    const result = await buildWith(xml(plugin), chunks(), { renderer: "xml", xml: { excludeTypes: [] } });
    expect(result.excludedIds).toEqual(["result"]);
  });

  test("excluding part of an assistant item sends the rest and says what was left out", async () => {
    const items: ItemInput[] = [
      { id: "u", type: "user", text: "Go." },
      { id: "a", type: "assistant", text: "Reading.", reasoning: [{ text: "Plan." }], toolCalls: [{ id: "c1", name: "read", arguments: "{}" }] },
      { id: "t", type: "tool-result", callId: "c1", output: "x" },
      { id: "u2", type: "user", text: "And?" },
    ];
    const result = await buildWith(xml(), items, { renderer: "xml", xml: { excludeTypes: ["WORKFLOW", "WORKING_FLOW"] } });
    expect(result.request.messages[1]).toEqual({ role: "assistant", content: '<assistant_response id="a" role="assistant">\nReading.\n</assistant_response>' });
    expect(decisions(result.report.entries.filter((entry) => entry.id === "a"))).toEqual({ a: "repaired at render: left out its WORKING_FLOW, WORKFLOW chunks: excludeTypes has them" });
  });

  test("includeOnlyChunkIds keeps the system prompt and a placeholder result for a call it keeps", async () => {
    const items: ItemInput[] = [
      { id: "u", type: "user", text: "Go." },
      { id: "a", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "read", arguments: "{}" }] },
      { id: "u2", type: "user", text: "Stop, answer directly." },
    ];
    const result = await buildWith(xml(), items, { renderer: "xml", system: "S", xml: { includeOnlyChunkIds: ["a", "u2"] } });
    expect(result.request.messages.map((message) => message.role)).toEqual(["system", "assistant", "user"]);
    const synthesized = result.report.synthesized.map((entry) => entry.id);
    expect(synthesized).toContain("ctxpipe:system-prompt");
    expect(result.request.messages[2]!.content).toContain(`call_id="c1"`);
    expect(result.excludedIds).toEqual(["u"]);
  });

  test("maxTokens: the budget holds on the rendered request, and includedIds / excludedIds say which chunks made it", async () => {
    const turns: ItemInput[] = Array.from({ length: 12 }, (_, index): ItemInput[] => [
      { id: `u${index}`, type: "user", text: `Question number ${index} about the build.` },
      { id: `a${index}`, type: "assistant", text: `Answer number ${index}: it is fine.` },
    ]).flat();
    const result = await buildWith(xml(), [...turns, { id: "last", type: "user", text: "Summarise." }], { renderer: "xml", maxTokens: 200, reserveOutputTokens: 20 });
    expect(result.tokenCount).toBeLessThanOrEqual(180);
    expect(result.tokenCountExact).toBe(true);
    expect(result.report.budget).toMatchObject({ maxTokens: 200, available: 180, used: result.tokenCount });
    expect(result.excludedIds.length).toBeGreaterThan(0);
    expect(result.includedIds.at(-1)).toBe("last");
    expect([...result.includedIds, ...result.excludedIds].sort()).toEqual([...turns.map((item) => item.id), "last"].sort());
  });
});

describe("token count", () => {
  test("is the count of the request sent, rebuild after rebuild", async () => {
    const plugin = new XmlRendererPlugin();
    const pipeline = createPipeline({ plugins: xml(plugin) });
    const items: ItemInput[] = [...toolLoopFixture(), { id: "u2", type: "user", text: "Why?" }];
    for (const extra of [[], [{ id: "a3", type: "assistant", text: "Because." }], [{ id: "a3", type: "assistant", text: "Because." }, { id: "u3", type: "user", text: "Ok." }]] as ItemInput[][]) {
      const result = await pipeline.build([...items, ...extra], { renderer: "xml", tokenizer: wordTokenizer, system: "Be brief." });
      expect(result.tokenCount).toBe(countXmlTokens(result.request, wordTokenizer));
      expect(result.report.entries.every((entry) => entry.tokens > 0)).toBe(true);
    }
  });
});

describe("custom chunk renderers", () => {
  // Seed 001's example: a chunk the application marks as its own, rendered with its own tag.
  const myCustomRenderer: ChunkRenderer = {
    name: "my-custom",
    canRender: (item) => item.metadata.extra?.["metadata.custom.myCustomType"] === true,
    getRole: () => "assistant",
    render: (item) => xmlElement("my_custom_tag", { id: item.id }, "text" in item ? item.text : ""),
  };
  const chunks = () =>
    importMemoryChunks([
      { id: "u", type: "AGENT", content: { role: "user", text: "Plan it." } },
      { id: "mine", type: "WORKING_FLOW", subType: "THINKING", content: "a < b", metadata: { custom: { myCustomType: true } } },
      { id: "plain", type: "WORKING_FLOW", subType: "THINKING", content: "c" },
      { id: "u2", type: "AGENT", content: { role: "user", text: "Go." } },
    ]);

  test("are consulted ahead of the built-in ones, as options or registered later", async () => {
    for (const plugin of [new XmlRendererPlugin({ renderers: [myCustomRenderer] }), new XmlRendererPlugin().registerRenderer(myCustomRenderer)]) {
      const result = await buildWith(xml(plugin), chunks(), { renderer: "xml" });
      expect(result.request.messages[1]).toEqual({
        role: "assistant",
        content: '<my_custom_tag id="mine">\na &lt; b\n</my_custom_tag>\n\n<thinking id="plain" subtype="THINKING">\nc\n</thinking>',
      });
    }
  });

  test("the renderer registered last is asked first", () => {
    const first: ChunkRenderer = { ...myCustomRenderer, name: "first" };
    const second: ChunkRenderer = { ...myCustomRenderer, name: "second" };
    const plugin = new XmlRendererPlugin({ renderers: [first] }).registerRenderer(second);
    expect(plugin.renderers.map((renderer) => renderer.name)).toEqual(["second", "first"]);
  });

  test("a renderer that can leave an item out, by rendering it as empty text", async () => {
    const hideThinking: ChunkRenderer = { name: "hide-thinking", canRender: (item) => item.type === "thinking", getRole: () => "assistant", render: () => "" };
    const result = await buildWith(xml(new XmlRendererPlugin({ renderers: [hideThinking] })), chunks(), { renderer: "xml" });
    expect(decisions(result.report.entries.filter((entry) => entry.decision !== "kept"))).toEqual({
      mine: 'dropped at render: chunk renderer "hide-thinking" rendered it as empty text',
      plain: 'dropped at render: chunk renderer "hide-thinking" rendered it as empty text',
    });
  });

  test("a renderer that forgets to escape is caught by the request check", async () => {
    const careless: ChunkRenderer = { name: "careless", canRender: (item) => item.type === "thinking", getRole: () => "assistant", render: (item) => `<note>${"text" in item ? item.text : ""}</note>` };
    const build = (validation: "throw" | "report") => buildWith(xml(new XmlRendererPlugin({ renderers: [careless] })), chunks(), { renderer: "xml", validation });
    const error = await build("throw").catch((thrown: unknown) => thrown);
    expect(CtxpipeError.isInstance(error) && error.code).toBe("CONTEXT_INVALID");
    expect((await build("report")).report.violations).toEqual([
      {
        rule: "XML-003",
        level: "error",
        message: 'message 1: a "<" at offset 8 that starts no tag',
        phase: "request",
        plugin: "XmlRendererPlugin",
        itemId: "mine",
        path: "messages[1].content",
        messageIndex: 1,
      },
    ]);
  });

  test("a renderer that breaks the contract fails the build naming it and the item", async () => {
    const wrongRole = { name: "wrong-role", canRender: () => true, getRole: () => "tool", render: () => "x" } as unknown as ChunkRenderer;
    const error = await buildWith(xml(new XmlRendererPlugin({ renderers: [wrongRole] })), chunks(), { renderer: "xml" }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ name: "PluginError", code: "PLUGIN_FAILED", plugin: "XmlRendererPlugin", hook: "render:xml" });
    expect((error as Error).message).toBe('[plugin XmlRendererPlugin] render:xml: chunk renderer "wrong-role" gave item "u" the role "tool"; expected "system", "user" or "assistant"');
  });
});

describe("bad options", () => {
  test("are refused by the constructor, naming the field", () => {
    expect(() => new XmlRendererPlugin({ excludeTypes: ["TOOLS" as "OUTPUT"] })).toThrowErrorMatchingInlineSnapshot(`
      [PluginOptionsError: Invalid options for XmlRendererPlugin:
      ✖ Invalid option: expected one of "SYSTEM"|"AGENT"|"WORKFLOW"|"DELEGATION"|"ENVIRONMENT"|"WORKING_FLOW"|"OUTPUT"
        → at excludeTypes[0]]
    `);
    expect(() => new XmlRendererPlugin({ renderers: [{ render: () => "" } as unknown as ChunkRenderer] })).toThrow(/renderers\[0\]/);
    expect(() => new XmlRendererPlugin({ includeSystemPrompt: true } as never)).toThrow(/Unrecognized key: "includeSystemPrompt"/);
  });

  test("per build, fail the build with the field named", async () => {
    const error = await buildWith(xml(), toolLoopFixture(), { renderer: "xml", xml: { includeOnlyChunkIds: "u1" as never } }).catch((thrown: unknown) => thrown);
    expect(CtxpipeError.isInstance(error)).toBe(true);
    // An options error reaches the caller as it is, not wrapped in a PluginError.
    expect(error).toMatchObject({ name: "PluginOptionsError", code: "OPTIONS_INVALID" });
    expect((error as Error).message).toContain("→ at includeOnlyChunkIds");
  });

  test("a renderer cannot be registered once the plugin has rendered", async () => {
    const plugin = new XmlRendererPlugin();
    await buildWith(xml(plugin), toolLoopFixture(), { renderer: "xml" });
    expect(() => plugin.registerRenderer({ canRender: () => false, getRole: () => "user", render: () => "" })).toThrow(/before the first build/);
  });
});

describe("per-build options", () => {
  test("are read afresh every build, so changing one reused object takes effect", async () => {
    const pipeline = createPipeline({ plugins: xml() });
    const options: { excludeTypes: Array<"OUTPUT" | "AGENT"> } = { excludeTypes: [] };
    const items: ItemInput[] = [
      { id: "u", type: "user", text: "Go." },
      { id: "done", type: "task-completed", text: "Done." },
      { id: "u2", type: "user", text: "Thanks." },
    ];
    expect((await pipeline.build(items, { renderer: "xml", xml: options })).excludedIds).toEqual([]);
    options.excludeTypes.push(ChunkType.OUTPUT);
    expect((await pipeline.build(items, { renderer: "xml", xml: options })).excludedIds).toEqual(["done"]);
  });

  test("take seed 001's spelling: ChunkType.OUTPUT and systemPrompt", async () => {
    const system = "You are an expert developer.";
    const result = await buildWith(xml(), toolLoopFixture(), { renderer: "xml", xml: { systemPrompt: system, excludeTypes: [ChunkType.OUTPUT], includeEnvironment: true } });
    expect(result.request.messages[0]).toEqual({ role: "system", content: system });
    expect(result.report.systemParts.map((part) => [part.id, part.addedBy])).toEqual([["systemPrompt", "XmlRendererPlugin"]]);
    expect(ChunkType.WORKING_FLOW).toBe("WORKING_FLOW");
  });

  test("systemPrompt and system together are refused", async () => {
    const error = await buildWith(xml(), toolLoopFixture(), { renderer: "xml", system: "A", xml: { systemPrompt: "B" } }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ name: "PluginOptionsError", code: "OPTIONS_INVALID" });
    expect((error as Error).message).toContain("xml.systemPrompt: give the system prompt once");
  });
});

describe("items ctxpipe synthesized", () => {
  const items: ItemInput[] = [
    { id: "u", type: "user", text: "Go." },
    { id: "a", type: "assistant", text: "Done." },
  ];

  test.for([
    { name: "includeOnlyChunkIds", options: { includeOnlyChunkIds: ["u"] } },
    { name: "excludeTypes", options: { excludeTypes: [ChunkType.AGENT] } },
    { name: "includeEnvironment: false", options: { includeEnvironment: false } },
  ])("are never left out by $name", async ({ options }) => {
    const result = await buildWith(xml(), items, { renderer: "xml", xml: options });
    expect(result.report.synthesized.map((entry) => entry.id)).toContain("ctxpipe:continue");
    expect(result.request.messages.at(-1)).toMatchObject({ role: "user", content: expect.stringContaining('id="ctxpipe:continue"') });
  });

  test("a placeholder result still goes where its call goes", async () => {
    const interrupted: ItemInput[] = [
      { id: "u", type: "user", text: "Go." },
      { id: "a", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "read", arguments: "{}" }] },
      { id: "u2", type: "user", text: "Stop." },
    ];
    const kept = await buildWith(xml(), interrupted, { renderer: "xml", xml: { includeEnvironment: false } });
    const placeholder = kept.report.synthesized.find((entry) => entry.id.startsWith("ctxpipe:") && entry.id.includes("c1"));
    expect(placeholder).toBeDefined();
    expect(kept.request.messages.map((message) => message.content).join("\n")).toContain(`id="${placeholder!.id}"`);
    const dropped = await buildWith(xml(), interrupted, { renderer: "xml", xml: { excludeTypes: ["WORKFLOW"] } });
    expect(dropped.request.messages.map((message) => message.content).join("\n")).not.toContain('call_id="c1"');
  });
});

describe("seed 001's attributes on items imported from chat messages", () => {
  test("a call is completed when its result is in the conversation, failed when that result is an error, else pending; a stored status wins", async () => {
    const items: ItemInput[] = [
      { id: "u", type: "user", text: "Go." },
      {
        id: "a",
        type: "assistant",
        text: "",
        toolCalls: [
          { id: "c1", name: "read", arguments: "{}" },
          { id: "c2", name: "read", arguments: "{}" },
          { id: "c3", name: "read", arguments: "{}", status: "running" },
          { id: "c4", name: "read", arguments: "{}" },
          { id: "c5", name: "read", arguments: "{}", status: "completed" },
        ],
      },
      { id: "t1", type: "tool-result", callId: "c1", output: "x" },
      { id: "t4", type: "tool-result", callId: "c4", output: "No such file", isError: true },
      { id: "t5", type: "tool-result", callId: "c5", output: "Denied", isError: true },
      { id: "t3", type: "tool-result", callId: "c3", output: "z" },
      { id: "u2", type: "user", text: "Stop." },
    ];
    // Left out of the text, the result still says the call completed.
    const result = await buildWith(xml(), items, { renderer: "xml", validation: "report", xml: { includeEnvironment: false } });
    const calls = result.request.messages[1]!.content;
    expect(calls).toContain('call_id="c1" status="completed"');
    expect(calls).toContain('call_id="c2" status="pending"');
    expect(calls).toContain('call_id="c3" status="running"');
    expect(calls).toContain('call_id="c4" status="failed"');
    expect(calls).toContain('call_id="c5" status="completed"');
  });

  test("a memory chunk's metadata.priority is the priority of its <system_context>", async () => {
    const items = importMemoryChunks([
      { id: "sys", type: "SYSTEM", content: "Ctx.", metadata: { priority: 500 } },
      { id: "u", type: "AGENT", content: { role: "user", text: "Hi." } },
    ]);
    const result = await buildWith(xml(), items, { renderer: "xml" });
    expect(result.request.messages[0]!.content).toBe('<system_context id="sys" priority="500">\nCtx.\n</system_context>');
  });

  test("a persisted model failure, when a pipeline sends it, is <error id code>", () => {
    const { request } = renderXmlMessages([{ id: "e", type: "error", role: "assistant", text: "LLM_TIMEOUT: no answer.", code: "LLM_TIMEOUT", metadata: {} }]);
    expect(request.messages).toEqual([{ role: "assistant", content: '<error id="e" code="LLM_TIMEOUT">\nLLM_TIMEOUT: no answer.\n</error>' }]);
  });

  test("a summary's compacted_at is its createdAt, else the newest createdAt it covers", async () => {
    const items: ItemInput[] = [
      { id: "old1", type: "user", text: "a", createdAt: "2024-01-01T00:00:00.000Z" },
      { id: "old2", type: "assistant", text: "b", createdAt: "2024-01-02T00:00:00.000Z" },
      { id: "s1", type: "summary", text: "Did a and b.", coveredIds: ["old1", "old2"] },
      { id: "s2", type: "summary", text: "Then c.", createdAt: "2024-01-03T00:00:00.000Z" },
      { id: "u", type: "user", text: "Next." },
    ];
    const sent = (await buildWith(xml(), items, { renderer: "xml" })).request.messages.map((message) => message.content).join("\n");
    expect(sent).toContain(`<progress_summary id="s1" compacted_at="${Date.parse("2024-01-02T00:00:00.000Z")}" original_count="2">`);
    expect(sent).toContain(`<progress_summary id="s2" compacted_at="${Date.parse("2024-01-03T00:00:00.000Z")}">`);
  });

  test("a stored system message without a priority gets SYSTEM_CONTEXT_DEFAULT_PRIORITY", async () => {
    const result = await buildWith(xml(), [{ id: "sys", type: "system", text: "Ctx." }, { id: "u", type: "user", text: "Hi." }], { renderer: "xml" });
    expect(result.request.messages[0]!.content).toBe(`<system_context id="sys" priority="${SYSTEM_CONTEXT_DEFAULT_PRIORITY}">\nCtx.\n</system_context>`);
    expect(SYSTEM_CONTEXT_DEFAULT_PRIORITY).toBe(1000);
  });
});

describe("chunks of the application's own type or sub-type", () => {
  // Seed 001's example renderer, reading the chunk as stored: its metadata.custom and its content.
  const seedRenderer: ChunkRenderer = {
    name: "my-custom",
    canRender: (item) => memoryChunkOf(item)?.metadata?.custom?.myCustomType === true,
    getRole: () => "assistant",
    render: (item) => xmlElement("my_custom_tag", { id: item.id }, JSON.stringify(memoryChunkOf(item)!.content)),
  };
  const chunks = () =>
    importMemoryChunks([
      { id: "u", type: "AGENT", content: { role: "user", text: "Plan it." } },
      { id: "mem", type: "MEMORY", content: { facts: ["likes tea"] }, metadata: { custom: { myCustomType: true } } },
      { id: "plan", type: "WORKING_FLOW", subType: "PLAN", content: "1. read <a> 2. fix" },
      { id: "note", type: "NOTE", role: "user", content: { text: "From the user's notebook." } },
      { id: "u2", type: "AGENT", content: { role: "user", text: "Go." } },
    ]);

  test("reach a custom chunk renderer with the chunk's own fields", async () => {
    const result = await buildWith(xml(new XmlRendererPlugin({ renderers: [seedRenderer] })), chunks(), { renderer: "xml" });
    expect(result.request.messages).toEqual([
      { role: "user", content: '<user_message id="u" role="user">\nPlan it.\n</user_message>' },
      {
        role: "assistant",
        content: '<my_custom_tag id="mem">\n{"facts":["likes tea"]}\n</my_custom_tag>\n\n<memory_chunk id="plan" type="WORKING_FLOW" subtype="PLAN">\n1. read &lt;a&gt; 2. fix\n</memory_chunk>',
      },
      {
        role: "user",
        content: '<memory_chunk id="note" type="NOTE">\nFrom the user\'s notebook.\n</memory_chunk>\n\n<user_message id="u2" role="user">\nGo.\n</user_message>',
      },
    ]);
    expect(result.excludedIds).toEqual([]);
  });

  test("without a renderer of their own, are <memory_chunk id type subtype> in the role they were imported with", async () => {
    const result = await buildWith(xml(), chunks(), { renderer: "xml" });
    expect(result.request.messages[1]!.content).toContain('<memory_chunk id="mem" type="MEMORY">\n{&quot;facts&quot;:[&quot;likes tea&quot;]}\n</memory_chunk>'.replaceAll("&quot;", '"'));
  });

  test("excludeTypes leaves out an unknown sub-type of a built-in type, never a type of the application's own", async () => {
    const result = await buildWith(xml(), chunks(), { renderer: "xml", xml: { excludeTypes: [ChunkType.WORKING_FLOW] } });
    expect(result.excludedIds).toEqual(["plan"]);
  });
});

