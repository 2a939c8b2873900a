// A history stored as Responses API items, imported with importOpenAIResponsesItems and rendered for
// "openai-responses" with nothing to compress, comes back as the `input` it was: reasoning with its
// encrypted content right before what it led to, ids, phases, outputs given as parts, items of other
// types where they stood. Stored in the shape the renderer writes (a text-only user message as a
// string, an output message with its id as output_text parts), the round trip is exact.
import { checkRules, createPipeline, importOpenAIMessages, importOpenAIResponsesItems, type Item } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { OpenAIResponsesRendererPlugin } from "./openai-responses-renderer-plugin.js";
import type { OpenAIResponsesRequest } from "./openai-responses-request.js";
import { openAIResponsesRules } from "./openai-responses-rules.js";

type Stored = Record<string, unknown>;

// No compression plugin: nothing is cut, so what is sent is what was stored.
const pipeline = createPipeline({ plugins: [new OpenAIResponsesRendererPlugin()] });

async function render(items: ReadonlyArray<Item>): Promise<OpenAIResponsesRequest> {
  const result = await pipeline.build(items, { renderer: "openai-responses", model: "gpt-5.1", tokenizer: wordTokenizer });
  expect(result.report.violations).toEqual([]);
  expect(checkRules(openAIResponsesRules, result.request, {})).toEqual([]);
  return result.request;
}

const user = (text: string): Stored => ({ type: "message", role: "user", content: text });
const reasoning = (id: string, summary: ReadonlyArray<string>): Stored => ({ type: "reasoning", id, summary: summary.map((text) => ({ type: "summary_text", text })), encrypted_content: `gAAAA-${id}` });
const outputMessage = (id: string, text: string, phase?: "commentary" | "final_answer"): Stored => ({
  type: "message",
  role: "assistant",
  id,
  status: "completed",
  content: [{ type: "output_text", text, annotations: [] }],
  ...(phase === undefined ? {} : { phase }),
});
const functionCall = (callId: string, name: string, args: string, id?: string): Stored => ({ type: "function_call", call_id: callId, name, arguments: args, ...(id === undefined ? {} : { id }) });

describe("import → render openai-responses gives back the stored input", () => {
  test.for<{ name: string; history: Stored[] }>([
    {
      name: "a reasoning model's tool loop with parallel calls",
      history: [
        user("Weather in Paris and Rome?"),
        reasoning("rs_1", ["Two cities: two calls."]),
        functionCall("call_p", "get_weather", '{"city":"Paris"}', "fc_1"),
        functionCall("call_r", "get_weather", '{"city":"Rome"}', "fc_2"),
        { type: "function_call_output", call_id: "call_p", output: "18C" },
        { type: "function_call_output", call_id: "call_r", output: "24C" },
        reasoning("rs_2", []),
        outputMessage("msg_1", "Paris 18C, Rome 24C.", "final_answer"),
        user("And tomorrow?"),
      ],
    },
    {
      name: "commentary, reasoning between the message and the call, an output given as parts",
      history: [
        user("Show me the chart."),
        outputMessage("msg_1", "Let me render it.", "commentary"),
        reasoning("rs_1", ["Use the plot tool.", "PNG is fine."]),
        functionCall("call_1", "plot", '{"format":"png"}', "fc_1"),
        {
          type: "function_call_output",
          call_id: "call_1",
          output: [
            { type: "input_text", text: "Rendered:" },
            { type: "input_image", detail: "auto", image_url: "https://example.test/chart.png" },
          ],
        },
        // No reasoning came with this answer: it goes back without its id (the API ties ids to reasoning).
        { type: "message", role: "assistant", content: "Here it is.", phase: "final_answer" },
        user("Thanks."),
      ],
    },
    {
      name: "items of other types before a message, inside a turn and at the end",
      history: [
        { type: "compaction", id: "cmp_1", encrypted_content: "gAAAA-compacted" },
        user("What is new?"),
        functionCall("call_1", "search", '{"q":"news"}'),
        { type: "mcp_list_tools", id: "mcpl_1", server_label: "docs", tools: [] },
        functionCall("call_2", "search", '{"q":"weather"}'),
        { type: "function_call_output", call_id: "call_1", output: "A launch." },
        { type: "function_call_output", call_id: "call_2", output: "Sunny." },
        { type: "message", role: "assistant", content: "A launch, and sun." },
        user("More?"),
        { type: "item_reference", id: "msg_0" },
      ],
    },
    {
      name: "two messages of one turn, each with its reasoning, phase, citations and id; a built-in call between them",
      history: [
        user("Find the release date."),
        reasoning("rs_1", []),
        outputMessage("msg_1", "Let me search.", "commentary"),
        reasoning("rs_2", []),
        { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "release date" } },
        reasoning("rs_3", ["Found it."]),
        {
          ...outputMessage("msg_2", "It ships on May 4 [1].", "final_answer"),
          content: [{ type: "output_text", text: "It ships on May 4 [1].", annotations: [{ type: "url_citation", url: "https://example.test/news", title: "News", start_index: 18, end_index: 21 }] }],
        },
        user("Thanks."),
      ],
    },
    {
      name: "a refusal after reasoning goes back as a refusal part under its id",
      history: [user("Help me break in."), reasoning("rs_1", []), { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "refusal", refusal: "I can't help with that." }] }, user("Fine.")],
    },
    {
      name: "a call of a tool of a namespace names it",
      history: [
        user("Find the customer."),
        reasoning("rs_1", []),
        { ...functionCall("call_1", "lookup", '{"name":"Ada"}', "fc_1"), namespace: "crm" },
        { type: "function_call_output", call_id: "call_1", output: "Ada Lovelace" },
        user("Thanks."),
      ],
    },
    {
      name: "reasoning and a built-in call that end a turn stay together",
      history: [
        user("Search."),
        reasoning("rs_1", []),
        { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "x" } },
        user("And?"),
        reasoning("rs_2", []),
        outputMessage("msg_1", "Looking.", "commentary"),
        reasoning("rs_3", []),
        { type: "web_search_call", id: "ws_2", status: "completed", action: { type: "search", query: "y" } },
        user("Go on."),
      ],
    },
    {
      name: "a tool output that is only an image, and user content the item model has no place for",
      history: [
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "Compare these." },
            { type: "input_image", detail: "auto", file_id: "file-abc" },
            { type: "input_image", detail: "original", image_url: "https://example.test/y.png" },
            { type: "input_file", file_url: "https://example.test/spec.pdf" },
          ],
        },
        functionCall("call_1", "screenshot", "{}"),
        { type: "function_call_output", call_id: "call_1", output: [{ type: "input_image", detail: "auto", image_url: "https://example.test/shot.png" }] },
        user("Thanks."),
      ],
    },
    {
      name: "a file id stored beside a file's data or an image's URL",
      history: [
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "See these." },
            { type: "input_file", file_data: "data:application/pdf;base64,JVBERi0=", file_id: "file-1", filename: "a.pdf" },
            { type: "input_image", detail: "auto", image_url: "https://example.test/y.png", file_id: "file-2" },
          ],
        },
      ],
    },
    {
      name: "two reasoning items in a row before their message",
      history: [user("Why?"), reasoning("rs_1", ["First."]), reasoning("rs_2", ["Then."]), outputMessage("msg_1", "Because."), user("Ok.")],
    },
  ])("$name", async ({ history }) => {
    const request = await render(importOpenAIResponsesItems(history));
    expect(request.input).toEqual(history);
  });

  test("any stored tool conversation", async () => {
    await fc.assert(
      fc.asyncProperty(histories, async (history) => {
        const request = await render(importOpenAIResponsesItems(history));
        expect(request.input).toEqual(history);
      }),
      { numRuns: 200 },
    );
  });

  test("a Chat Completions history renders as the same Responses input as the Responses history it matches", async () => {
    const chat = [
      { role: "user", content: "Weather in Paris?" },
      { role: "assistant", content: "Checking.", tool_calls: [{ id: "call_p", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] },
      { role: "tool", tool_call_id: "call_p", content: "18C" },
      { role: "assistant", content: "18C." },
      { role: "user", content: "Thanks." },
    ];
    const responses = [
      user("Weather in Paris?"),
      { type: "message", role: "assistant", content: "Checking." },
      functionCall("call_p", "get_weather", '{"city":"Paris"}'),
      { type: "function_call_output", call_id: "call_p", output: "18C" },
      { type: "message", role: "assistant", content: "18C." },
      user("Thanks."),
    ];
    expect((await render(importOpenAIMessages(chat))).input).toEqual(responses);
    expect((await render(importOpenAIResponsesItems(responses))).input).toEqual(responses);
  });
});

const text = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,.?!]{0,40}$/);
const phase = fc.constantFrom(undefined, "commentary" as const, "final_answer" as const);

/** One assistant turn: a model's reasoning (or none), what it says, the calls it makes; ids numbered later. */
const turn = (minCalls: number) =>
  fc.record({
    reasoned: fc.boolean(),
    summaries: fc.array(text, { maxLength: 2 }),
    message: fc.option(fc.record({ text, phase }), { nil: undefined }),
    calls: fc.array(fc.record({ name: fc.constantFrom("read_file", "search", "run"), arguments: fc.constantFrom("{}", '{"q":"x"}', '{"path":"a.ts"}'), output: text, asParts: fc.boolean() }), {
      minLength: minCalls,
      maxLength: 3,
    }),
    otherItemBetweenCalls: fc.boolean(),
  });

/**
 * Stored histories in the shape the renderer writes: user questions, each followed by 0–2 tool turns
 * (their outputs after them) and maybe an answer. A reasoning model's turn has reasoning before each
 * message and call, with ids; another has plain messages and calls. Items of other types stand
 * before a question and between calls; a question comes last.
 */
const histories: fc.Arbitrary<Stored[]> = fc
  .array(fc.record({ question: text, toolTurns: fc.array(turn(1), { maxLength: 2 }), answer: fc.option(turn(0), { nil: undefined }), compactionBefore: fc.boolean() }), {
    minLength: 1,
    maxLength: 4,
  })
  .map((exchanges) => {
    let next = 0;
    const id = () => next++;
    const history: Stored[] = [];
    for (const exchange of exchanges) {
      if (exchange.compactionBefore) history.push({ type: "compaction", id: `cmp_${id()}`, encrypted_content: "gAAAA-compacted" });
      history.push(user(exchange.question));
      // An answer is a turn without calls, so the next stored item is a question: turns never run together.
      const answer = exchange.answer === undefined ? [] : [{ ...exchange.answer, calls: [], message: exchange.answer.message ?? { text: "Done.", phase: undefined } }];
      for (const planned of [...exchange.toolTurns, ...answer]) {
        const calls = planned.calls.map((call) => ({ ...call, callId: `call_${id()}` }));
        const reasoned = planned.reasoned;
        const reason = () => (reasoned ? [reasoning(`rs_${id()}`, planned.summaries)] : []);
        if (planned.message !== undefined) {
          const { text: said, phase: labelled } = planned.message;
          history.push(...reason());
          history.push(
            reasoned ? outputMessage(`msg_${id()}`, said, labelled) : { type: "message", role: "assistant", content: said, ...(labelled === undefined ? {} : { phase: labelled }) },
          );
        }
        calls.forEach((call, position) => {
          // An item of another type between two calls of the turn stays in the turn, where it stood.
          if (position > 0 && planned.otherItemBetweenCalls) history.push({ type: "web_search_call", id: `ws_${id()}`, status: "completed", action: { type: "search", query: "x" } });
          history.push(...reason());
          history.push(functionCall(call.callId, call.name, call.arguments, reasoned ? `fc_${id()}` : undefined));
        });
        for (const call of calls) {
          const output = call.asParts
            ? [
                { type: "input_text", text: call.output },
                { type: "input_image", detail: "auto", image_url: "https://example.test/shot.png" },
              ]
            : call.output;
          history.push({ type: "function_call_output", call_id: call.callId, output });
        }
      }
    }
    history.push(user("What next?"));
    return history;
  });
