import { type BuildResult, checkRules, createPipeline, type ItemInput, openAIResponsesOutputText, type PipelinePlugin, type Tokenizer } from "@ctxpipe/core";
import { buildWith, everyItemTypeFixture, toolLoopFixture, wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { countOpenAIResponsesTokens } from "./count-openai-responses-tokens.js";
import { OpenAIResponsesRendererPlugin } from "./openai-responses-renderer-plugin.js";
import type { OpenAIResponsesRequest } from "./openai-responses-request.js";
import { openAIResponsesRules } from "./openai-responses-rules.js";

const plugin = () => new OpenAIResponsesRendererPlugin();
const renderer = "openai-responses" as const;
const hi: ItemInput[] = [{ id: "u", type: "user", text: "hello world" }];
const responses = (value: Record<string, unknown>) => ({ extra: { openaiResponses: value } });

/** A tool loop with a reasoning model, as the importer of stored Responses items gives it back. */
function storedResponsesTurnsFixture(): ItemInput[] {
  return [
    { id: "u1", type: "user", text: "Why does the build fail?" },
    {
      id: "a1",
      type: "assistant",
      text: "",
      reasoning: [{ text: "Read the log and the config." }],
      toolCalls: [
        { id: "call_log", name: "read_file", arguments: '{"path":"build.log"}' },
        { id: "call_cfg", name: "read_file", arguments: '{"path":"tsconfig.json"}' },
      ],
      metadata: responses({
        sequence: [
          { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Read the log and the config." }], encrypted_content: "gAAAAB-one" },
          { type: "function_call", call_id: "call_log", id: "fc_1", status: "completed" },
          { type: "function_call", call_id: "call_cfg", id: "fc_2", status: "completed" },
        ],
      }),
    },
    { id: "t1", type: "tool-result", callId: "call_log", toolName: "read_file", output: "error TS2307: Cannot find module 'zod'." },
    {
      id: "t2",
      type: "tool-result",
      callId: "call_cfg",
      toolName: "read_file",
      output: "The config, as a picture:",
      metadata: responses({
        outputParts: [
          { type: "input_text", text: "The config, as a picture:" },
          { type: "input_image", detail: "auto", image_url: "https://example.test/config.png" },
        ],
      }),
    },
    {
      id: "a2",
      type: "assistant",
      text: "zod is not installed.",
      reasoning: [{ text: "The module is missing." }],
      metadata: responses({
        sequence: [
          { type: "reasoning", id: "rs_2", summary: [{ type: "summary_text", text: "The module is missing." }], encrypted_content: "gAAAAB-two" },
          { type: "message", id: "msg_2", status: "completed", phase: "final_answer" },
        ],
      }),
    },
    { id: "u2", type: "user", text: "Install it.", metadata: responses({ before: [{ type: "compaction", id: "cmp_1", encrypted_content: "gAAAAB-compacted" }] }) },
  ];
}

/** The input items an item was rendered to: from its message index to the next item's. */
function inputOf(result: BuildResult<OpenAIResponsesRequest>, id: string): unknown[] {
  const entries = result.report.entries;
  const at = entries.findIndex((entry) => entry.id === id);
  const start = entries[at]?.messageIndex;
  if (start === undefined) return [];
  const end = entries.slice(at + 1).find((entry) => entry.messageIndex !== undefined)?.messageIndex ?? result.request.input.length;
  return result.request.input.slice(start, end);
}

const golden = (request: unknown) => `${JSON.stringify(request, null, 2)}\n`;

describe("OpenAIResponsesRendererPlugin", () => {
  test.for([
    { name: "every item type", file: "every-item-type.openai-responses.json", items: everyItemTypeFixture, options: { system: "You are a careful engineer." } },
    { name: "a parallel tool loop", file: "tool-loop.openai-responses.json", items: toolLoopFixture, options: { system: "Be brief." } },
    { name: "a cached request (prompt_cache_key)", file: "tool-loop-cached.openai-responses.json", items: toolLoopFixture, options: { system: "Be brief.", promptCacheKey: "conversation-42" } },
    { name: "stored Responses turns with reasoning", file: "stored-turns.openai-responses.json", items: storedResponsesTurnsFixture, options: { system: "Be brief.", reserveOutputTokens: 4096 } },
  ])("renders $name (golden file) with no rule violation", async ({ file, items, options }) => {
    const result = await buildWith([plugin()], items(), { renderer, model: "gpt-5.1", ...options });
    await expect(golden(result.request)).toMatchFileSnapshot(`__fixtures__/${file}`);
    expect(checkRules(openAIResponsesRules, result.request, { model: "gpt-5.1" })).toEqual([]);
    expect(result.report.violations).toEqual([]);
    expect(result.tokenCount).toBe(countOpenAIResponsesTokens(result.request, wordTokenizer));
  });

  test("sends stored reasoning verbatim before its calls and message, with the ids, and a result's parts as they were", async () => {
    const { request } = await buildWith([plugin()], storedResponsesTurnsFixture(), { renderer });
    expect(request.input).toEqual([
      { type: "message", role: "user", content: "Why does the build fail?" },
      { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Read the log and the config." }], encrypted_content: "gAAAAB-one" },
      { type: "function_call", id: "fc_1", call_id: "call_log", name: "read_file", arguments: '{"path":"build.log"}' },
      { type: "function_call", id: "fc_2", call_id: "call_cfg", name: "read_file", arguments: '{"path":"tsconfig.json"}' },
      { type: "function_call_output", call_id: "call_log", output: "error TS2307: Cannot find module 'zod'." },
      {
        type: "function_call_output",
        call_id: "call_cfg",
        output: [
          { type: "input_text", text: "The config, as a picture:" },
          { type: "input_image", detail: "auto", image_url: "https://example.test/config.png" },
        ],
      },
      { type: "reasoning", id: "rs_2", summary: [{ type: "summary_text", text: "The module is missing." }], encrypted_content: "gAAAAB-two" },
      { type: "message", role: "assistant", id: "msg_2", status: "completed", content: [{ type: "output_text", text: "zod is not installed.", annotations: [] }], phase: "final_answer" },
      { type: "compaction", id: "cmp_1", encrypted_content: "gAAAAB-compacted" },
      { type: "message", role: "user", content: "Install it." },
    ]);
  });

  test("leaves thinking items out and says so", async () => {
    const result = await buildWith([plugin()], everyItemTypeFixture(), { renderer });
    expect(result.report.entries.find((entry) => entry.id === "thinking")).toMatchObject({
      decision: "dropped",
      stage: "render",
      plugin: "OpenAIResponsesRendererPlugin",
      reason: "thinking items are not sent to the OpenAI Responses API",
    });
  });

  describe("the assistant turn", () => {
    const user: ItemInput = { id: "u", type: "user", text: "Go." };
    const next: ItemInput = { id: "u9", type: "user", text: "Next." };
    const reasoning = { type: "reasoning", id: "rs_a", summary: [{ type: "summary_text", text: "Plan." }], encrypted_content: "gAAAAB-a" };
    const call = (id: string) => ({ id, name: "run", arguments: `{"n":"${id}"}` });
    const results = (...ids: string[]): ItemInput[] => ids.map((id) => ({ id: `t_${id}`, type: "tool-result", callId: id, output: `done ${id}` }));
    const sent = (id: string, withId?: string) => ({ type: "function_call", ...(withId === undefined ? {} : { id: withId }), call_id: id, name: "run", arguments: `{"n":"${id}"}` });
    const NOT_FOLLOWED =
      "its reasoning is not sent, nor the ids of its message and calls: a reasoning item must be followed by the message or function call it belongs to, which is no longer sent as it was (the API refuses the request otherwise)";
    const TEXT_CHANGED =
      "its stored reasoning is not sent, nor the ids of its message and calls: its text is no longer the text of its stored messages, which therefore do not go back as they were (the API ties reasoning to the messages it returned)";
    const FOLLOWER_WITHOUT_ID =
      "its reasoning is not sent, nor the ids of its message and calls: a reasoning item is followed by a message or call stored without an id, which the API does not take for the item the reasoning belongs to (it refuses the request otherwise)";
    const cited = { type: "url_citation", url: "https://example.com/a", title: "A", start_index: 0, end_index: 4 };
    const NONE_STORED =
      "its reasoning is not sent: the Responses API takes back only the reasoning items it returned (with their ids), and none is stored with this item";

    test.for([
      {
        case: "without a stored sequence: the message, then the calls, no reasoning (reported)",
        item: { text: "Running.", reasoning: [{ text: "Plan." }], toolCalls: [call("c1")] },
        input: [{ type: "message", role: "assistant", content: "Running." }, sent("c1")],
        repaired: NONE_STORED,
      },
      {
        case: "reasoning an earlier stage took off (an empty list): no reasoning item and no ids (reported)",
        item: { text: "", reasoning: [], toolCalls: [call("c1")], metadata: responses({ sequence: [reasoning, { type: "function_call", call_id: "c1", id: "fc_1" }] }) },
        input: [sent("c1")],
        repaired: "its stored reasoning is not sent, nor the ids of its message and calls: an earlier stage took the reasoning off the item",
      },
      {
        case: "no reasoning field (a loop's Chat-shaped log keeps it in the sequence only): the stored reasoning and the ids are sent",
        item: { text: "", toolCalls: [call("c1")], metadata: responses({ sequence: [reasoning, { type: "function_call", call_id: "c1", id: "fc_1" }] }) },
        input: [reasoning, sent("c1", "fc_1")],
      },
      {
        case: "the call after the reasoning is gone: no reasoning item and no ids (reported)",
        item: {
          text: "",
          reasoning: [{ text: "Plan." }],
          toolCalls: [call("c2")],
          metadata: responses({ sequence: [reasoning, { type: "function_call", call_id: "c1", id: "fc_1" }, { type: "function_call", call_id: "c2", id: "fc_2" }] }),
        },
        input: [sent("c2")],
        repaired: NOT_FOLLOWED,
      },
      {
        case: "the message after the reasoning became blank: no reasoning item and no ids (reported)",
        item: {
          text: " ",
          reasoning: [{ text: "Plan." }],
          toolCalls: [call("c1")],
          metadata: responses({ sequence: [reasoning, { type: "message", id: "msg_1" }, { type: "function_call", call_id: "c1", id: "fc_1" }] }),
        },
        input: [sent("c1")],
        repaired: NOT_FOLLOWED,
      },
      {
        case: "a call the sequence lacks comes last, text it lacks first, both without ids",
        item: {
          text: "Also this.",
          reasoning: [{ text: "Plan." }],
          toolCalls: [call("c1"), call("c2")],
          metadata: responses({ sequence: [reasoning, { type: "function_call", call_id: "c1", id: "fc_1" }] }),
        },
        input: [{ type: "message", role: "assistant", content: "Also this." }, reasoning, sent("c1", "fc_1"), sent("c2")],
      },
      {
        case: "a message stored after the calls goes before them with its reasoning: nothing may stand between a call and its output",
        item: {
          text: "Checking.",
          reasoning: [{ text: "Plan." }, { text: "Say so." }],
          toolCalls: [call("c1")],
          metadata: responses({ sequence: [reasoning, { type: "function_call", call_id: "c1", id: "fc_1" }, { ...reasoning, id: "rs_b" }, { type: "message", id: "msg_1" }] }),
        },
        input: [
          { ...reasoning, id: "rs_b" },
          { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "output_text", text: "Checking.", annotations: [] }] },
          reasoning,
          sent("c1", "fc_1"),
        ],
      },
      {
        case: "stored items of other types stay where they were, verbatim; with no reasoning stored, the message goes without its id",
        item: {
          text: "Found it.",
          metadata: responses({
            sequence: [
              { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "zod" } },
              { type: "message", id: "msg_1", phase: "commentary", status: "incomplete" },
            ],
          }),
        },
        input: [
          { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "zod" } },
          { type: "message", role: "assistant", content: "Found it.", phase: "commentary" },
        ],
      },
      {
        case: "reasoning before a built-in tool's call is sent with it",
        item: {
          text: "Found it.",
          reasoning: [{ text: "Plan." }],
          metadata: responses({ sequence: [reasoning, { type: "web_search_call", id: "ws_1", status: "completed" }, { type: "message", id: "msg_1" }] }),
        },
        input: [
          reasoning,
          { type: "web_search_call", id: "ws_1", status: "completed" },
          { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "output_text", text: "Found it.", annotations: [] }] },
        ],
      },
      {
        case: "reasoning before an item of another type is not sent, nor the ids (reported)",
        item: {
          text: "Found it.",
          reasoning: [{ text: "Plan." }],
          metadata: responses({ sequence: [reasoning, { type: "compaction", encrypted_content: "gAAAAB" }, { type: "message", id: "msg_1" }] }),
        },
        input: [{ type: "compaction", encrypted_content: "gAAAAB" }, { type: "message", role: "assistant", content: "Found it." }],
        repaired: NOT_FOLLOWED,
      },
      {
        case: "messages stored without their content (before it was kept): the turn's text goes to the first",
        item: { text: "One.\nTwo.", metadata: responses({ sequence: [{ type: "message", id: "msg_1" }, { type: "message", id: "msg_2" }] }) },
        input: [{ type: "message", role: "assistant", content: "One.\nTwo." }],
      },
      {
        case: "ids stored without reasoning are not sent: with store: true the API knows the items had reasoning, and refuses them without it",
        item: {
          text: "Done.",
          toolCalls: [call("c1")],
          metadata: responses({ sequence: [{ type: "message", id: "msg_1", status: "completed", content: "Done." }, { type: "function_call", call_id: "c1", id: "fc_1" }] }),
        },
        input: [{ type: "message", role: "assistant", content: "Done." }, sent("c1")],
      },
      {
        case: "two messages stored with their content go back each as it was: its own reasoning, id, phase and citations",
        item: {
          text: "Looking.\nFound it [1].",
          reasoning: [{ text: "Plan." }, { text: "Answer." }],
          metadata: responses({
            sequence: [
              reasoning,
              { type: "message", id: "msg_1", status: "completed", phase: "commentary", content: [{ type: "output_text", text: "Looking.", annotations: [] }] },
              { ...reasoning, id: "rs_b" },
              { type: "web_search_call", id: "ws_1", status: "completed" },
              {
                type: "message",
                id: "msg_2",
                status: "completed",
                phase: "final_answer",
                content: [{ type: "output_text", text: "Found it [1].", annotations: [{ type: "url_citation", url: "https://example.test", title: "T", start_index: 9, end_index: 12 }] }],
              },
            ],
          }),
        },
        input: [
          reasoning,
          { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "output_text", text: "Looking.", annotations: [] }], phase: "commentary" },
          { ...reasoning, id: "rs_b" },
          { type: "web_search_call", id: "ws_1", status: "completed" },
          {
            type: "message",
            role: "assistant",
            id: "msg_2",
            status: "completed",
            content: [{ type: "output_text", text: "Found it [1].", annotations: [{ type: "url_citation", url: "https://example.test", title: "T", start_index: 9, end_index: 12 }] }],
            phase: "final_answer",
          },
        ],
      },
      {
        case: "two stored messages whose text changed: one message with the item's text, no reasoning and no ids (reported)",
        item: {
          text: "[earlier answer cleared]",
          reasoning: [{ text: "Plan." }, { text: "Answer." }],
          metadata: responses({
            sequence: [
              reasoning,
              { type: "message", id: "msg_1", status: "completed", phase: "commentary", content: [{ type: "output_text", text: "Looking.", annotations: [] }] },
              { ...reasoning, id: "rs_b" },
              { type: "message", id: "msg_2", status: "completed", phase: "final_answer", content: [{ type: "output_text", text: "Found it.", annotations: [] }] },
            ],
          }),
        },
        input: [{ type: "message", role: "assistant", content: "[earlier answer cleared]" }],
        repaired: TEXT_CHANGED,
      },
      {
        case: "one stored message whose text changed: no reasoning and no id, its citations and the refusal beside its text reported",
        item: {
          text: "See [1]. (edited)",
          reasoning: [{ text: "Plan." }],
          metadata: responses({
            sequence: [
              reasoning,
              {
                type: "message",
                id: "msg_1",
                status: "completed",
                phase: "final_answer",
                content: [
                  { type: "output_text", text: "See [1].", annotations: [cited] },
                  { type: "refusal", refusal: "Not the rest." },
                ],
              },
            ],
          }),
        },
        input: [{ type: "message", role: "assistant", content: "See [1]. (edited)", phase: "final_answer" }],
        repaired: TEXT_CHANGED,
        alsoRepaired: [
          "the citations (annotations) of its stored messages are not sent: they point into the stored text, which the item no longer holds",
          "the refusal of its stored messages is not sent: it stood beside the stored text, which the item no longer holds",
        ],
      },
      {
        case: "a message stored without an id after its reasoning (a server that gave none): no reasoning, no ids",
        item: {
          text: "Done.",
          reasoning: [{ text: "Plan." }],
          metadata: responses({ sequence: [reasoning, { type: "message", status: "completed", content: [{ type: "output_text", text: "Done.", annotations: [] }] }] }),
        },
        input: [{ type: "message", role: "assistant", content: "Done." }],
        repaired: FOLLOWER_WITHOUT_ID,
      },
      {
        case: "a call stored without an id after the second reasoning item: no reasoning, and no id on the first call either",
        item: {
          text: "",
          reasoning: [{ text: "Plan." }, { text: "More." }],
          toolCalls: [call("c1"), call("c2")],
          metadata: responses({ sequence: [reasoning, { type: "function_call", call_id: "c1", id: "fc_1" }, { ...reasoning, id: "rs_b" }, { type: "function_call", call_id: "c2" }] }),
        },
        input: [sent("c1"), sent("c2")],
        repaired: FOLLOWER_WITHOUT_ID,
      },
      {
        case: "a stored part sent under its id keeps only the API's fields, and an output_text without annotations gets an empty list",
        item: {
          text: "Done.\nAgain.",
          reasoning: [{ text: "Plan." }],
          metadata: responses({
            sequence: [
              reasoning,
              {
                type: "message",
                id: "msg_1",
                status: "completed",
                content: [
                  { type: "output_text", text: "Done." },
                  { type: "output_text", text: "Again.", annotations: [], note: "mine" },
                ],
              },
            ],
          }),
        },
        input: [
          reasoning,
          {
            type: "message",
            role: "assistant",
            id: "msg_1",
            status: "completed",
            content: [
              { type: "output_text", text: "Done.", annotations: [] },
              { type: "output_text", text: "Again.", annotations: [] },
            ],
          },
        ],
      },
      {
        case: "a refusal beside text in a message sent without its id goes as words after the text",
        item: {
          text: "Part of it.",
          metadata: responses({
            sequence: [
              {
                type: "message",
                id: "msg_1",
                status: "completed",
                content: [
                  { type: "output_text", text: "Part of it.", annotations: [] },
                  { type: "refusal", refusal: "Not the rest." },
                ],
              },
            ],
          }),
        },
        input: [{ type: "message", role: "assistant", content: "Part of it.\nNot the rest." }],
      },
      {
        case: "a refusal stored with its reasoning goes back as a refusal part under its id",
        item: {
          text: "I can't help with that.",
          reasoning: [{ text: "Plan." }],
          metadata: responses({ sequence: [reasoning, { type: "message", id: "msg_1", status: "completed", content: [{ type: "refusal", refusal: "I can't help with that." }] }] }),
        },
        input: [reasoning, { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "refusal", refusal: "I can't help with that." }] }],
      },
      {
        case: "citations of a message sent without its id are left out (reported)",
        item: {
          text: "See [1].",
          metadata: responses({
            sequence: [
              { type: "message", id: "msg_1", phase: "final_answer", content: [{ type: "output_text", text: "See [1].", annotations: [{ type: "url_citation", url: "https://example.test", title: "T", start_index: 4, end_index: 7 }] }] },
            ],
          }),
        },
        input: [{ type: "message", role: "assistant", content: "See [1].", phase: "final_answer" }],
        repaired:
          "the citations (annotations) of its stored messages are not sent: a message goes back with its content parts only with its id, and ids go only with the turn's reasoning",
      },
      {
        case: "a call's namespace goes back with it",
        item: { text: "", reasoning: [{ text: "Plan." }], toolCalls: [call("c1")], metadata: responses({ sequence: [reasoning, { type: "function_call", call_id: "c1", id: "fc_1", namespace: "crm" }] }) },
        input: [reasoning, { ...sent("c1", "fc_1"), namespace: "crm" }],
      },
      {
        case: "two reasoning items in a row, then their message: all go back, with the message's id",
        item: { text: "Done.", reasoning: [{ text: "Plan." }, { text: "More." }], metadata: responses({ sequence: [reasoning, { ...reasoning, id: "rs_b" }, { type: "message", id: "msg_1" }] }) },
        input: [reasoning, { ...reasoning, id: "rs_b" }, { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "output_text", text: "Done.", annotations: [] }] }],
      },
      {
        case: "two reasoning items in a row at the end of the turn: neither is sent",
        item: { text: "Done.", reasoning: [{ text: "Plan." }, { text: "More." }], metadata: responses({ sequence: [{ type: "message", id: "msg_1" }, reasoning, { ...reasoning, id: "rs_b" }] }) },
        input: [{ type: "message", role: "assistant", content: "Done." }],
        repaired: NOT_FOLLOWED,
      },
      {
        case: "entries that are not Responses items are left out, and said so",
        item: { text: "Done.", metadata: responses({ sequence: [42, { id: "no type" }, { type: "message" }] }) },
        input: [{ type: "message", role: "assistant", content: "Done." }],
        repaired: 'metadata.extra.openaiResponses.sequence[1] is not a Responses item (a JSON object with a "type"): it is not sent',
      },
    ] satisfies Array<{ case: string; item: Omit<Extract<ItemInput, { type: "assistant" }>, "id" | "type">; input: unknown[]; repaired?: string; alsoRepaired?: string[] }>)(
      "$case",
      async ({ item, input, repaired, alsoRepaired }) => {
        const assistant = { id: "a", type: "assistant", ...item } as ItemInput;
        const callIds = (item.toolCalls ?? []).map((entry) => entry.id);
        const result = await buildWith([plugin()], [user, assistant, ...results(...callIds), next], { renderer });
        expect(inputOf(result, "a")).toEqual(input);
        expect(checkRules(openAIResponsesRules, result.request)).toEqual([]);
        const entry = result.report.entries.find((candidate) => candidate.id === "a");
        if (repaired === undefined) expect(entry?.decision).toBe("kept");
        else expect(entry?.history.map((event) => event.reason)).toContain(repaired);
        for (const reason of alsoRepaired ?? []) expect(entry?.history.map((event) => event.reason)).toContain(reason);
      },
    );

    test("an assistant item with nothing to send is dropped, and says why", async () => {
      const pipeline = createPipeline({ plugins: [plugin()], defaults: { filter: false, repairOrphans: false, validate: false } });
      const result = await pipeline.build([user, { id: "a", type: "assistant", text: "\n" }, next], { renderer, tokenizer: wordTokenizer });
      expect(result.request.input).toEqual([
        { type: "message", role: "user", content: "Go." },
        { type: "message", role: "user", content: "Next." },
      ]);
      expect(result.report.entries[1]).toMatchObject({ decision: "dropped", stage: "render", reason: "the assistant message is empty: nothing to send" });
    });
  });

  describe("system messages", () => {
    const turn: ItemInput[] = [
      { id: "u1", type: "user", text: "Hi." },
      { id: "a1", type: "assistant", text: "Hello." },
    ];
    const later: ItemInput = { id: "s1", type: "system", text: "From now on answer in French." };
    const newest: ItemInput = { id: "u2", type: "user", text: "How are you?" };

    test.for([
      { case: "the default: a later one is a developer message, where it was", options: {}, role: "developer" },
      { case: 'systemRole "system"', options: { systemRole: "system" as const }, role: "system" },
    ])("the leading ones are the instructions; $case", async ({ options, role }) => {
      const items: ItemInput[] = [{ id: "s0", type: "system", text: "You are terse." }, ...turn, later, newest];
      const result = await buildWith([new OpenAIResponsesRendererPlugin(options)], items, { renderer });
      expect(result.request.instructions).toBe("You are terse.");
      expect(result.request.input).toEqual([
        { type: "message", role: "user", content: "Hi." },
        { type: "message", role: "assistant", content: "Hello." },
        { type: "message", role, content: "From now on answer in French." },
        { type: "message", role: "user", content: "How are you?" },
      ]);
      expect(result.report.entries.find((entry) => entry.id === "s1")).toMatchObject({ decision: "kept", messageIndex: 2 });
      expect(result.metadata.outputCount).toBe(5);
    });

    test("consecutive leading system messages are joined as the instructions, a blank one is left out", async () => {
      // Only the renderer: the stages that would drop the blank one first are off.
      const pipeline = createPipeline({ plugins: [plugin()], defaults: { insertSystem: false, filter: false, repairOrphans: false, validate: false } });
      const items: ItemInput[] = [
        { id: "s0", type: "system", text: "You are terse." },
        { id: "s1", type: "system", text: " \u200B" },
        { id: "s2", type: "system", text: "Answer in French." },
        ...turn,
        newest,
      ];
      const result = await pipeline.build(items, { renderer, tokenizer: wordTokenizer });
      expect(result.request.instructions).toBe("You are terse.\n\nAnswer in French.");
      expect(result.report.entries.find((entry) => entry.id === "s1")).toMatchObject({ decision: "dropped", reason: "the system message is empty: nothing to send" });
    });

    test("no system text at all: no instructions field", async () => {
      const result = await buildWith([plugin()], hi, { renderer, includeSystemPrompt: false });
      expect(result.request).not.toHaveProperty("instructions");
      expect(result.metadata.outputCount).toBe(1);
    });
  });

  test("attachments: text first, an image's detail (auto by default), file data as a data: URL with its file id", async () => {
    const result = await buildWith(
      [plugin()],
      [
        {
          id: "u",
          type: "user",
          text: "Read these.",
          attachments: [
            { type: "image", url: "https://example.test/a.png" },
            { type: "file", data: "JVBERi0x", mediaType: "application/pdf", filename: "a.pdf", fileId: "file-1" },
            { type: "file", data: "data:text/plain;base64,aGk=" },
            { type: "file", fileId: "file-2" },
          ],
        },
      ],
      { renderer },
    );
    expect(result.request.input).toEqual([
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "Read these." },
          { type: "input_image", detail: "auto", image_url: "https://example.test/a.png" },
          { type: "input_file", file_data: "data:application/pdf;base64,JVBERi0x", file_id: "file-1", filename: "a.pdf" },
          { type: "input_file", file_data: "data:text/plain;base64,aGk=" },
          { type: "input_file", file_id: "file-2" },
        ],
      },
    ]);
  });

  test("a result's stored parts are sent while its output is the text they were imported as; a changed output is sent as text", async () => {
    const parts = [
      { type: "input_text", text: "Chart:" },
      { type: "input_image", detail: "low", image_url: "https://example.test/c.png" },
    ];
    const items = (output: string): ItemInput[] => [
      { id: "u", type: "user", text: "Plot it." },
      { id: "a", type: "assistant", text: "", toolCalls: [{ id: "c", name: "plot", arguments: "{}" }] },
      { id: "t", type: "tool-result", callId: "c", output, metadata: responses({ outputParts: parts }) },
      { id: "u2", type: "user", text: "Thanks." },
    ];
    const unchanged = await buildWith([plugin()], items("Chart:"), { renderer });
    const changed = await buildWith([plugin()], items("[cleared]"), { renderer });
    expect(unchanged.request.input[2]).toEqual({ type: "function_call_output", call_id: "c", output: parts });
    expect(changed.request.input[2]).toEqual({ type: "function_call_output", call_id: "c", output: "[cleared]" });
    // The image part counts by its detail (85 for low), not by its URL.
    expect(unchanged.tokenCount - changed.tokenCount).toBe(wordTokenizer.count("Chart:") + 85 - wordTokenizer.count("[cleared]"));
  });

  test("a result that is only an image goes back as the image: its output is the marker the parts were imported as", async () => {
    const parts = [{ type: "input_image", detail: "auto", file_id: "file-1" }];
    const items = (output: string): ItemInput[] => [
      { id: "u", type: "user", text: "Screenshot." },
      { id: "a", type: "assistant", text: "", toolCalls: [{ id: "c", name: "shot", arguments: "{}" }] },
      { id: "t", type: "tool-result", callId: "c", output, metadata: responses({ outputParts: parts }) },
      { id: "u2", type: "user", text: "Thanks." },
    ];
    const unchanged = await buildWith([plugin()], items(openAIResponsesOutputText(parts)), { renderer });
    expect(unchanged.request.input[2]).toEqual({ type: "function_call_output", call_id: "c", output: parts });
    expect(unchanged.report.entries.find((entry) => entry.id === "t")?.decision).toBe("kept");
    // The same item for any other renderer says there was an image.
    const chat = await buildWith([], items(openAIResponsesOutputText(parts)));
    expect(chat.request.messages[2]).toMatchObject({ role: "tool", content: "[image]" });
  });

  describe("a user or system message stored with parts the item has no place for", () => {
    const content = [
      { type: "input_text", text: "Compare." },
      { type: "input_image", detail: "auto", image_url: "https://example.test/a.png" },
      { type: "input_image", detail: "auto", file_id: "file-abc" },
      { type: "input_image", detail: "original", image_url: "https://example.test/b.png" },
      { type: "input_file", file_url: "https://example.test/c.pdf" },
    ];
    const stored = (text: string, attachments: Array<{ type: "image"; url: string; detail?: "auto" }>): ItemInput => ({ id: "u", type: "user", text, attachments, metadata: responses({ content }) });
    const leftOut = (index: number, type: string) =>
      `its stored "${type}" part (content[${index}]) is not sent: the message's text or attachments changed since it was stored, and the item has no place for the part`;

    test("goes back as stored while its text and attachments are unchanged", async () => {
      const result = await buildWith([plugin()], [stored("Compare.", [{ type: "image", url: "https://example.test/a.png", detail: "auto" }])], { renderer });
      expect(result.request.input).toEqual([{ type: "message", role: "user", content }]);
      expect(result.report.entries[0]?.decision).toBe("kept");
    });

    test.for([
      { case: "its text changed", text: "[redacted]", attachments: [{ type: "image" as const, url: "https://example.test/a.png", detail: "auto" as const }] },
      { case: "an attachment was taken off", text: "Compare.", attachments: [] },
    ])("sends what the item holds once $case, and names each part left out", async ({ text, attachments }) => {
      const result = await buildWith([plugin()], [stored(text, attachments)], { renderer });
      const sent = attachments.length === 0 ? text : [{ type: "input_text", text }, ...attachments.map(() => content[1])];
      expect(result.request.input).toEqual([{ type: "message", role: "user", content: sent }]);
      expect(result.report.entries[0]?.history.map((event) => event.reason)).toEqual([leftOut(2, "input_image"), leftOut(3, "input_image"), leftOut(4, "input_file")]);
    });

    test("a part of a type the API does not take is left out of the stored list, and said so", async () => {
      const withAudio = [{ type: "input_text", text: "Listen." }, { type: "input_audio", input_audio: { data: "UklGR", format: "wav" } }];
      const result = await buildWith([plugin()], [{ id: "u", type: "user", text: "Listen.", metadata: responses({ content: withAudio }) }], { renderer });
      expect(result.request.input).toEqual([{ type: "message", role: "user", content: [{ type: "input_text", text: "Listen." }] }]);
      expect(result.report.entries[0]?.history.map((event) => event.reason)).toEqual([
        'metadata.extra.openaiResponses.content[1] (a "input_audio" part) is not sent: the Responses API takes text, image and file parts only',
      ]);
    });

    test("a later system message goes back as stored; a leading one is the instructions, text only (its parts reported)", async () => {
      const rule = [
        { type: "input_text", text: "Use the logo." },
        { type: "input_image", detail: "low", image_url: "https://example.test/logo.png" },
      ];
      const system = (id: string): ItemInput => ({ id, type: "system", text: "Use the logo.", metadata: responses({ content: rule }) });
      const result = await buildWith([plugin()], [system("s0"), { id: "u", type: "user", text: "Hi." }, system("s1"), { id: "u2", type: "user", text: "Go." }], { renderer });
      expect(result.request.instructions).toBe("Use the logo.");
      expect(result.request.input[1]).toEqual({ type: "message", role: "developer", content: rule });
      // The stored system message is merged into the system prompt, which names what of it the instructions leave out.
      const reasons = result.report.allEntries.find((entry) => entry.id === "ctxpipe:system-prompt")?.history.map((event) => event.reason);
      expect(reasons).toContain(
        `the system message "s0": its stored "input_image" part (content[1]) is not sent: the conversation's first system messages are sent as the request's instructions, which are text`,
      );
      // Not composed: the stored one is the leading item itself.
      const alone = await createPipeline({ plugins: [plugin()], defaults: { insertSystem: false } }).build([system("s0"), { id: "u", type: "user", text: "Hi." }], { renderer, tokenizer: wordTokenizer });
      expect(alone.request.instructions).toBe("Use the logo.");
      expect(alone.report.entries[0]?.history.map((event) => event.reason)).toContain(
        `its stored "input_image" part (content[1]) is not sent: the conversation's first system messages are sent as the request's instructions, which are text`,
      );
    });
  });

  test("stored items of other types before an item the build does not send go with the next item sent, and the report says so", async () => {
    const compaction = { type: "compaction", id: "cmp_1", encrypted_content: "gAAAAB-compacted" };
    const result = await buildWith(
      [plugin()],
      [
        { id: "u0", type: "user", text: "Old question.", metadata: { includeInContext: false, ...responses({ before: [compaction] }) } },
        { id: "a0", type: "assistant", text: "Old answer.", metadata: { includeInContext: false } },
        { id: "u1", type: "user", text: "New question." },
        { id: "a1", type: "assistant", text: "", metadata: responses({ after: [{ type: "item_reference", id: "msg_9" }] }) },
      ],
      { renderer },
    );
    expect(result.request.input).toEqual([compaction, { type: "message", role: "user", content: "New question." }, { type: "item_reference", id: "msg_9" }]);
    expect(checkRules(openAIResponsesRules, result.request)).toEqual([]);
    expect(result.report.entries.find((entry) => entry.id === "u1")?.history.map((event) => event.reason)).toEqual([
      'also sends the stored items (compaction "cmp_1") that stood with item "u0", which is not sent: they stand for what the API keeps of the conversation, and go with the next item sent',
      'also sends the stored items (item_reference "msg_9") that stood with item "a1", which is not sent: they stand for what the API keeps of the conversation, and go after the last item sent',
    ]);
    expect(result.report.entries.find((entry) => entry.id === "a1")?.decision).toBe("dropped");
    expect(result.tokenCount).toBe(countOpenAIResponsesTokens(result.request, wordTokenizer));
  });

  test("stored items of unknown types are sent before and after their item, and also when the item itself is not", async () => {
    const result = await buildWith(
      [plugin()],
      [
        { id: "u", type: "user", text: "Hi.", metadata: responses({ before: [{ type: "item_reference", id: "ref_1" }] }) },
        { id: "th", type: "thinking", text: "hmm", metadata: responses({ before: [{ type: "compaction", encrypted_content: "gAAAAB" }] }) },
        { id: "u2", type: "user", text: "Bye.", metadata: responses({ after: [{ type: "item_reference", id: "ref_2" }] }) },
      ],
      { renderer },
    );
    expect(result.request.input).toEqual([
      { type: "item_reference", id: "ref_1" },
      { type: "message", role: "user", content: "Hi." },
      { type: "compaction", encrypted_content: "gAAAAB" },
      { type: "message", role: "user", content: "Bye." },
      { type: "item_reference", id: "ref_2" },
    ]);
    expect(result.report.entries.map((entry) => [entry.id, entry.decision, entry.messageIndex])).toEqual([
      ["u", "kept", 1],
      ["th", "dropped", undefined],
      ["u2", "kept", 3],
    ]);
  });

  test("tools in the flat Responses format, strict false, counted by the Chat Completions tool formula", async () => {
    const tools = [
      { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
      { name: "now", parameters: { type: "object", properties: {} } },
    ];
    const withTools = await buildWith([plugin()], hi, { renderer, tools });
    const without = await buildWith([plugin()], hi, { renderer });
    expect(withTools.request.tools).toEqual([
      { type: "function", name: "read_file", description: "Read a file", parameters: tools[0]!.parameters, strict: false },
      { type: "function", name: "now", parameters: { type: "object", properties: {} }, strict: false },
    ]);
    expect(without.request).not.toHaveProperty("tools");
    // 12 for the section; per function 7 + "name:description"; with properties 3, per property 3 + "key:type:description".
    const expected = 12 + (7 + wordTokenizer.count("read_file:Read a file") + 3 + 3 + wordTokenizer.count("path:string:")) + (7 + wordTokenizer.count("now:"));
    expect(withTools.tokenCount - without.tokenCount).toBe(expected);
  });

  test.for([
    { name: "left out by default", plugins: [], options: {}, expected: undefined },
    { name: "the build's reserveOutputTokens", plugins: [], options: { maxTokens: 100_000, reserveOutputTokens: 8192 }, expected: 8192 },
    { name: "the build's reserveOutputTokens given alone, with no window known", plugins: [], options: { reserveOutputTokens: 8192 }, expected: 8192 },
    { name: "the maxOutputTokens option first", plugins: [{ maxOutputTokens: 1024 }], options: { maxTokens: 100_000, reserveOutputTokens: 8192 }, expected: 1024 },
  ])("max_output_tokens is $name", async ({ plugins, options, expected }) => {
    const result = await buildWith([new OpenAIResponsesRendererPlugin(...plugins)], hi, { renderer, ...options });
    expect(result.request.max_output_tokens).toBe(expected);
    expect("max_output_tokens" in result.request).toBe(expected !== undefined);
  });

  test.for([
    { case: "no key anywhere: none is sent", plugin: {}, build: {}, expected: undefined },
    { case: "the renderer's option", plugin: { promptCacheKey: "app-wide" }, build: {}, expected: "app-wide" },
    { case: "the build's option, over the renderer's", plugin: { promptCacheKey: "app-wide" }, build: { promptCacheKey: "conversation-42" }, expected: "conversation-42" },
  ])("prompt_cache_key: $case", async ({ plugin: options, build, expected }) => {
    const result = await buildWith([new OpenAIResponsesRendererPlugin(options)], hi, { renderer, ...build });
    expect(result.request.prompt_cache_key).toBe(expected);
    expect("prompt_cache_key" in result.request).toBe(expected !== undefined);
    // The key routes the request; it is not part of the prompt, so it costs no tokens.
    expect(result.tokenCount).toBe(countOpenAIResponsesTokens(result.request, wordTokenizer));
  });

  test("with store: false: sends store: false, and leaves out what the API would have to find in its storage, reported", async () => {
    const encrypted = { type: "reasoning", id: "rs_a", summary: [], encrypted_content: "gAAAAB-a" };
    const bare = { type: "reasoning", id: "rs_b", summary: [] };
    const answer = (id: string, text: string) => ({ type: "message", id, status: "completed", content: [{ type: "output_text", text, annotations: [] }] });
    const items: ItemInput[] = [
      { id: "u", type: "user", text: "Go.", metadata: responses({ before: [{ type: "item_reference", id: "msg_0" }] }) },
      { id: "a1", type: "assistant", text: "One.", reasoning: [{ text: "" }], metadata: responses({ sequence: [encrypted, answer("msg_1", "One.")] }) },
      { id: "u2", type: "user", text: "Again." },
      { id: "a2", type: "assistant", text: "Two.\nThree.", reasoning: [{ text: "" }, { text: "" }], metadata: responses({ sequence: [{ ...encrypted, id: "rs_c" }, answer("msg_2", "Two."), bare, answer("msg_3", "Three.")] }) },
      { id: "u3", type: "user", text: "Next." },
    ];
    const result = await buildWith([new OpenAIResponsesRendererPlugin({ store: false })], items, { renderer });
    expect(result.request.store).toBe(false);
    expect(result.request.input).toEqual([
      { type: "message", role: "user", content: "Go." },
      encrypted,
      { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "output_text", text: "One.", annotations: [] }] },
      { type: "message", role: "user", content: "Again." },
      { type: "message", role: "assistant", content: "Two." },
      { type: "message", role: "assistant", content: "Three." },
      { type: "message", role: "user", content: "Next." },
    ]);
    expect(checkRules(openAIResponsesRules, result.request)).toEqual([]);
    const reasons = (id: string) => result.report.entries.find((entry) => entry.id === id)?.history.map((event) => event.reason);
    expect(reasons("u")).toContain("metadata.extra.openaiResponses.before[0] (item_reference) is not sent: with store: false the API keeps no item for it to point at");
    expect(reasons("a2")).toContain(
      "its stored reasoning is not sent, nor the ids of its message and calls: with store: false the API keeps nothing, and a reasoning item of this turn was stored without its encrypted_content (ask for include: ['reasoning.encrypted_content'])",
    );
    // Stored (the default), the same conversation goes back whole.
    const kept = await buildWith([plugin()], items, { renderer });
    expect(kept.request).not.toHaveProperty("store");
    expect(kept.request.input).toContainEqual(bare);
    expect(kept.request.input).toContainEqual({ type: "item_reference", id: "msg_0" });
  });

  test("sets model only when the build names one", async () => {
    expect((await buildWith([plugin()], hi, { renderer, model: "gpt-5.1" })).request.model).toBe("gpt-5.1");
    expect((await buildWith([plugin()], hi, { renderer })).request).not.toHaveProperty("model");
  });

  test("counts tokens: reply priming, the instructions as a system message, each input item with its overhead", async () => {
    const result = await buildWith([plugin()], hi, { renderer, system: "Be brief." });
    // 3 to prime the reply; the instructions 3 + "developer" (1) + "Be brief." (3); the message 3 + "user" (1) + "hello world" (2).
    expect(result.tokenCount).toBe(3 + (3 + 1 + 3) + (3 + 1 + 2));
    expect(result.tokenCountExact).toBe(true);
  });

  test("counts calls, outputs and reasoning: 3 + name + arguments, 3 + tool + output, 3 + the summary (not the encrypted content)", async () => {
    const result = await buildWith([plugin()], storedResponsesTurnsFixture().slice(0, 4), { renderer, includeSystemPrompt: false, validation: "report" });
    const count = (text: string) => wordTokenizer.count(text);
    const user = 3 + 1 + count("Why does the build fail?");
    const reasoning = 3 + count("Read the log and the config.");
    const calls = 3 + count("read_file") + count('{"path":"build.log"}') + 3 + count("read_file") + count('{"path":"tsconfig.json"}');
    const outputs = 3 + 1 + count("error TS2307: Cannot find module 'zod'.") + 3 + 1 + count("The config, as a picture:") + 765;
    // repair-orphans adds a user turn after the last result; its text counts as any user message.
    const added = result.request.input.slice(6).reduce((total, item) => total + 3 + 1 + count((item as { content: string }).content), 0);
    expect(result.tokenCount).toBe(3 + user + reasoning + calls + outputs + added);
  });

  test("the cached counts equal a fresh count of the request sent, build after build", async () => {
    const pipeline = createPipeline({ plugins: [plugin()] });
    const options = { renderer, tokenizer: wordTokenizer, system: "Be brief." } as const;
    await pipeline.build(storedResponsesTurnsFixture(), options);
    const result = await pipeline.build([...storedResponsesTurnsFixture(), ...everyItemTypeFixture()], options);
    expect(result.tokenCount).toBe(countOpenAIResponsesTokens(result.request, wordTokenizer));
  });

  test("a rebuild after one new message renders and counts only that message, and reports the prefix a cache reuses", async () => {
    const counted: string[] = [];
    const recording: Tokenizer = {
      ...wordTokenizer,
      count(text) {
        counted.push(text);
        return wordTokenizer.count(text);
      },
    };
    const pipeline = createPipeline({ plugins: [plugin()] });
    const history = storedResponsesTurnsFixture();
    const options = { renderer, tokenizer: recording, system: "Be brief." } as const;
    const first = await pipeline.build(history, options);
    counted.length = 0;
    const next = await pipeline.build([...history, { id: "a9", type: "assistant", text: "On it." }, { id: "u9", type: "user", text: "one more thing" }], options);
    // Each new text once, for its input item (the pipeline's per-item counts come from the same cache), and the roles.
    expect(counted.filter((text) => text === "one more thing" || text === "On it.")).toEqual(["On it.", "one more thing"]);
    expect(counted.filter((text) => !["one more thing", "On it.", "user", "assistant"].includes(text))).toEqual([]);
    expect(next.tokenCount).toBe(first.tokenCount + (3 + 1 + 3) + (3 + 1 + 3));
    // The same objects: the shared items were not rendered again.
    first.request.input.forEach((inputItem, index) => {
      expect(next.request.input[index]).toBe(inputItem);
    });
    expect(next.report.cache).toMatchObject({ compared: true, breaksAt: undefined, sameMessages: first.request.input.length, reusableTokens: first.tokenCount - 3 });
  });

  test("a violation found in any input item of an assistant turn names that item", async () => {
    // A stand-in for a rule: flags the second function call, rendered at input[3] from item "a1".
    const flagSecondCall: PipelinePlugin = {
      name: "FlagSecondCall",
      apply(pipeline) {
        pipeline.hooks.validateRequest.for("openai-responses").tap({ name: "FlagSecondCall", stage: 0 }, (request, context) => {
          const index = request.input.findIndex((item) => item.type === "function_call" && item.call_id === "call_cfg");
          context.issue({ rule: "TEST-001", message: "flagged", path: `input[${index}].call_id`, messageIndex: index });
        });
      },
    };
    const result = await buildWith([plugin(), flagSecondCall], storedResponsesTurnsFixture(), { renderer, validation: "report" });
    expect(result.report.violations).toEqual([expect.objectContaining({ rule: "TEST-001", path: "input[3].call_id", messageIndex: 3, itemId: "a1" })]);
    expect(result.report.entries.find((entry) => entry.id === "a1")?.messageIndex).toBe(1);
  });

  test("refuses options it does not know, and an empty prompt cache key", async () => {
    expect(() => new OpenAIResponsesRendererPlugin({ max_output_tokens: 5 } as never)).toThrow(expect.objectContaining({ name: "PluginOptionsError" }));
    expect(() => new OpenAIResponsesRendererPlugin({ maxOutputTokens: 0 })).toThrow(expect.objectContaining({ name: "PluginOptionsError" }));
    expect(() => new OpenAIResponsesRendererPlugin({ promptCacheKey: "" })).toThrow(/promptCacheKey/);
    await expect(buildWith([plugin()], hi, { renderer, promptCacheKey: "" })).rejects.toThrow(/promptCacheKey/);
  });
});
