import { checkRules, createPipeline, type ItemInput, PluginOptionsError, parseItems, SYSTEM_PROMPT_ID } from "@ctxpipe/core";
import { buildWith, everyItemTypeFixture, toolLoopFixture, wordTokenizer } from "@ctxpipe/core/testing";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, test } from "vitest";
import { importLangChainMessages } from "../messages/import-langchain-messages.js";
import { countLangChainTokens } from "./count-langchain-tokens.js";
import { LangChainRendererPlugin } from "./langchain-renderer-plugin.js";
import { langChainRules } from "./langchain-rules.js";
import { renderLangChainMessage } from "./render-langchain-message.js";

const plugin = () => new LangChainRendererPlugin();
// LangChain's own serialization (what load() revives), so the golden files show every field sent.
const golden = (request: { messages: BaseMessage[] }) => `${JSON.stringify(request, null, 2)}\n`;

/** A conversation as a LangChain app stores it: content blocks, provider metadata, an error result. */
function langChainConversation(): BaseMessage[] {
  return [
    new HumanMessage({ id: "h1", content: [{ type: "text", text: "What is in this picture, and the weather in Paris?" }, { type: "image_url", image_url: { url: "https://example.test/p.png" } }] }),
    new AIMessage({
      id: "a1",
      content: [
        { type: "thinking", thinking: "Two things to do.", signature: "sig" },
        { type: "text", text: "Checking." },
      ],
      tool_calls: [
        { id: "call_1", name: "get_weather", args: { city: "Paris" }, type: "tool_call" },
        { id: "call_2", name: "describe_image", args: { url: "https://example.test/p.png" }, type: "tool_call" },
      ],
      response_metadata: { model_provider: "anthropic", stop_reason: "tool_use" },
      additional_kwargs: { provider_field: 1 },
    }),
    new ToolMessage({ id: "t1", tool_call_id: "call_1", name: "get_weather", content: "18°C, cloudy", artifact: { celsius: 18 } }),
    new ToolMessage({ id: "t2", tool_call_id: "call_2", name: "describe_image", content: "Error: image too large", status: "error" }),
    new AIMessage({ id: "a2", content: "It is 18°C and cloudy in Paris; I could not read the picture." }),
    new HumanMessage({ id: "h2", content: "Thanks!" }),
  ];
}

describe("LangChainRendererPlugin", () => {
  test.for([
    { name: "every item type", file: "every-item-type.langchain.json", items: everyItemTypeFixture, system: "You are a careful engineer." },
    { name: "a parallel tool loop", file: "tool-loop.langchain.json", items: toolLoopFixture, system: "Be brief." },
    { name: "a conversation imported from LangChain", file: "imported.langchain.json", items: () => importLangChainMessages(langChainConversation()), system: "Be brief." },
  ])("renders $name (golden file) with no rule violation", async ({ file, items, system }) => {
    const result = await buildWith([plugin()], items(), { renderer: "langchain", system });
    await expect(golden(result.request)).toMatchFileSnapshot(`__fixtures__/${file}`);
    expect(checkRules(langChainRules, result.request)).toEqual([]);
    expect(result.report.repairedViolations).toEqual([]);
  });

  test("gives back the messages LangChain stored, with their blocks, ids and metadata, behind the system prompt", async () => {
    const stored = langChainConversation();
    const result = await buildWith([plugin()], importLangChainMessages(stored), { renderer: "langchain", system: "Be brief." });
    const [system, ...messages] = result.request.messages;
    expect(system).toBeInstanceOf(SystemMessage);
    expect(system!.id).toBe(SYSTEM_PROMPT_ID);
    expect(JSON.parse(JSON.stringify(messages))).toEqual(JSON.parse(JSON.stringify(stored)));
  });

  test("the request's token count is the count of its messages and tools by the documented formula", async () => {
    const tools = [{ name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } } } }];
    const result = await buildWith([plugin()], importLangChainMessages(langChainConversation()), { renderer: "langchain", system: "Be brief.", tools });
    expect(result.tokenCount).toBe(countLangChainTokens(result.request.messages, wordTokenizer, tools.map((tool) => ({ ...tool }))));
    expect(result.tokenCount).toBeGreaterThan(countLangChainTokens(result.request.messages, wordTokenizer));
  });

  test("a system message stored later joins the leading one by default, or becomes a labelled human message", async () => {
    const items: ItemInput[] = [
      { id: "s1", type: "system", text: "Be brief." },
      { id: "u1", type: "user", text: "Hi" },
      { id: "s2", type: "system", text: "The user is on mobile." },
      { id: "u2", type: "user", text: "Weather?" },
    ];
    const merged = await buildWith([plugin()], items, { renderer: "langchain" });
    expect(merged.request.messages.map((message) => [message.type, message.text])).toEqual([
      ["system", "Be brief.\n\nThe user is on mobile."],
      ["human", "Hi"],
      ["human", "Weather?"],
    ]);
    expect(merged.report.entries.find((entry) => entry.id === "s2")).toMatchObject({ decision: "merged" });
    const labelled = await buildWith([new LangChainRendererPlugin({ laterSystemMessages: "user" })], items, { renderer: "langchain" });
    expect(labelled.request.messages.map((message) => [message.type, message.text])).toEqual([
      ["system", "Be brief."],
      ["human", "Hi"],
      ["human", "[System message]\nThe user is on mobile."],
      ["human", "Weather?"],
    ]);
  });

  test("call arguments that are not a JSON object are sent as an object: core's repair wraps them, and the renderer's own fallback is {} with a repair note", async () => {
    const items: ItemInput[] = [
      { id: "u", type: "user", text: "Search" },
      { id: "a", type: "assistant", text: "", toolCalls: [{ id: "c", name: "search", arguments: '{"q": "unterminated' }] },
      { id: "t", type: "tool-result", callId: "c", output: "nothing" },
    ];
    const result = await buildWith([plugin()], items, { renderer: "langchain" });
    expect((result.request.messages[1] as AIMessage).tool_calls).toEqual([{ id: "c", name: "search", args: { _raw: '{"q": "unterminated' }, type: "tool_call" }]);
    expect(checkRules(langChainRules, result.request)).toEqual([]);
    const [item] = parseItems([items[1]!]);
    const rendered = renderLangChainMessage(item!);
    expect("message" in rendered && (rendered.message as AIMessage).tool_calls).toEqual([{ id: "c", name: "search", args: {}, type: "tool_call" }]);
    expect(rendered).toMatchObject({ repaired: "tool call arguments that are not a JSON object sent as {} (LangChain's tool_calls take an object): c" });
  });

  test("renders the same message objects for the same items (an agent's next call renders only the new ones)", async () => {
    const pipeline = createPipeline({ plugins: [plugin()] });
    const history = importLangChainMessages(langChainConversation());
    const first = await pipeline.build(history, { renderer: "langchain", tokenizer: wordTokenizer });
    const second = await pipeline.build([...history, ...importLangChainMessages([new HumanMessage({ id: "h3", content: "More?" })])], { renderer: "langchain", tokenizer: wordTokenizer });
    first.request.messages.forEach((message, index) => {
      expect(second.request.messages[index]).toBe(message);
    });
  });

  test("bad options are a PluginOptionsError naming the option", () => {
    expect(() => new LangChainRendererPlugin({ laterSystemMessages: "assistant" as never })).toThrow(PluginOptionsError);
    expect(() => new LangChainRendererPlugin({ laterSystemMessages: "assistant" as never })).toThrow(/laterSystemMessages/);
  });
});
