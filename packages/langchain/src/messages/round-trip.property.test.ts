// Round trips through LangChain's message classes, as properties over arbitrary input:
// - ctxpipe items rendered "langchain" and imported back give the same texts, calls and pairing;
// - any LangChain history, broken ones included, builds into messages that break none of
//   langChainRules (nor OpenAI's and Anthropic's rules once converted), and no user or assistant text
//   disappears without the report saying why.
import { checkRules, createPipeline, isBlank, type ItemInput } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { anthropicProblems, openAIProblems, strictRequestProblems } from "../__fixtures__/strict-request-check.js";
import { LangChainRendererPlugin } from "../renderer/langchain-renderer-plugin.js";
import { langChainRules } from "../renderer/langchain-rules.js";
import { importLangChainMessages } from "./import-langchain-messages.js";

// Text with the things that trip converters: non-Latin scripts, JSON-looking text, newlines.
const text = fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.constantFrom("你好，世界", "{\"a\": 1}", "line one\nline two", "مرحبا", "x"));
const visible = text.filter((value) => !isBlank(value));
const args = fc.dictionary(fc.constantFrom("city", "q", "n", "path"), fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean()), { maxKeys: 3 });

/** A well-formed conversation: user turns, assistant turns with parallel calls, each answered once. */
const conversation: fc.Arbitrary<ItemInput[]> = fc
  .array(fc.record({ user: visible, calls: fc.array(fc.record({ name: fc.constantFrom("search", "get_weather", "read_file"), args, output: text, isError: fc.boolean() }), { maxLength: 3 }), answer: fc.option(visible, { nil: undefined }) }), {
    minLength: 1,
    maxLength: 6,
  })
  .map((turns) => {
    const items: ItemInput[] = [];
    turns.forEach((turn, t) => {
      items.push({ id: `u${t}`, type: "user", text: turn.user });
      if (turn.calls.length > 0) {
        items.push({ id: `a${t}`, type: "assistant", text: "", toolCalls: turn.calls.map((call, c) => ({ id: `call_${t}_${c}`, name: call.name, arguments: JSON.stringify(call.args) })) });
        turn.calls.forEach((call, c) => {
          items.push({ id: `t${t}_${c}`, type: "tool-result", callId: `call_${t}_${c}`, toolName: call.name, output: call.output, isError: call.isError });
        });
      }
      if (turn.answer !== undefined) items.push({ id: `r${t}`, type: "assistant", text: turn.answer });
    });
    // A request ends on the user's turn (otherwise the pipeline adds "Continue.", which is not a round trip).
    items.push({ id: "next", type: "user", text: "Go on." });
    return items;
  });

/** What a round trip must keep: each item's kind, text, calls (arguments as values) and what each result answers. */
function essence(items: ReadonlyArray<ItemInput>) {
  return items.map((item) => {
    switch (item.type) {
      case "user":
        return { type: "user", id: item.id, text: item.text };
      case "assistant":
        return { type: "assistant", id: item.id, text: item.text ?? "", calls: (item.toolCalls ?? []).map((call) => ({ id: call.id, name: call.name, args: JSON.parse(call.arguments) })) };
      case "tool-result":
        return { type: "tool-result", id: item.id, callId: item.callId, output: item.output, isError: item.isError ?? false };
      default:
        return { type: item.type, id: item.id };
    }
  });
}

/** Any LangChain history: calls answered or not, orphan and duplicate results, repeated messages, invalid calls, stray system messages. */
const history: fc.Arbitrary<BaseMessage[]> = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant("human" as const), text, id: fc.option(fc.constantFrom("h1", "h2", "h3"), { nil: undefined }) }) },
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant("ai" as const),
          text: fc.oneof(text, fc.constant("")),
          calls: fc.array(fc.record({ id: fc.constantFrom("c1", "c2", "c3", "c4"), name: fc.constantFrom("search", "get_weather"), args }), { maxLength: 3 }),
          invalid: fc.boolean(),
        }),
      },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant("tool" as const), callId: fc.constantFrom("c1", "c2", "c3", "c4", "zz"), text, error: fc.boolean() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("system" as const), text }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("repeat" as const), back: fc.nat(5) }) },
    ),
    { minLength: 1, maxLength: 14 },
  )
  .map((specs) => {
    const messages: BaseMessage[] = [];
    for (const spec of specs) {
      switch (spec.kind) {
        case "human":
          messages.push(new HumanMessage({ content: spec.text, ...(spec.id === undefined ? {} : { id: spec.id }) }));
          break;
        case "ai":
          messages.push(
            new AIMessage({
              content: spec.text,
              tool_calls: spec.calls.map((call) => ({ ...call, type: "tool_call" as const })),
              ...(spec.invalid ? { invalid_tool_calls: [{ id: "bad", name: "search", args: '{"q": ', error: "Malformed args.", type: "invalid_tool_call" as const }] } : {}),
            }),
          );
          break;
        case "tool":
          messages.push(new ToolMessage({ content: spec.text, tool_call_id: spec.callId, ...(spec.error ? { status: "error" as const } : {}) }));
          break;
        case "system":
          messages.push(new SystemMessage(spec.text));
          break;
        case "repeat": {
          // The same message object again: a double write.
          const earlier = messages[messages.length - 1 - spec.back];
          if (earlier !== undefined) messages.push(earlier);
        }
      }
    }
    return messages;
  });

const pipeline = createPipeline({ plugins: [new LangChainRendererPlugin()] });

describe("round trips through LangChain messages", () => {
  test("items rendered as LangChain messages and imported back keep their texts, calls and pairing", async () => {
    await fc.assert(
      fc.asyncProperty(conversation, async (items) => {
        const result = await pipeline.build(items, { renderer: "langchain", tokenizer: wordTokenizer, system: "Be brief." });
        const [system, ...messages] = result.request.messages;
        expect(system?.type).toBe("system");
        // A result with no visible output is sent as repair-orphans' placeholder, reported as repaired.
        const sent = items.map((item) => (item.type === "tool-result" && isBlank(item.output) ? { ...item, output: "(no output)" } : item));
        expect(essence(importLangChainMessages(messages))).toEqual(essence(sent));
        for (const item of items) {
          if (item.type === "tool-result" && isBlank(item.output)) expect(result.report.entries.find((entry) => entry.id === item.id)?.decision).toBe("repaired");
        }
      }),
      { numRuns: 100 },
    );
  });

  test("any history, broken or not, builds into messages valid for LangChain, OpenAI and Anthropic, losing no text silently", async () => {
    await fc.assert(
      fc.asyncProperty(history, async (messages) => {
        const items = importLangChainMessages(messages);
        let result: Awaited<ReturnType<typeof pipeline.build<"langchain">>>;
        try {
          result = await pipeline.build(items, { renderer: "langchain", tokenizer: wordTokenizer, system: "Be brief." });
        } catch (error) {
          // Only a history with nothing a model could be asked about may be refused.
          expect(messages.some((message) => message.type === "human" && !isBlank(message.text))).toBe(false);
          expect((error as { code?: string }).code).toBe("CONTEXT_INVALID");
          return;
        }
        const sent = result.request.messages;
        expect(checkRules(langChainRules, result.request)).toEqual([]);
        expect(strictRequestProblems(sent)).toEqual([]);
        expect(openAIProblems(sent)).toEqual([]);
        expect(anthropicProblems(sent)).toEqual([]);
        const json = JSON.stringify(sent);
        items.forEach((item, index) => {
          if ((item.type !== "user" && item.type !== "assistant") || isBlank(item.text ?? "")) return;
          const entry = result.report.entries[index]!;
          expect(entry.id).toBe(item.id);
          if (["dropped", "summarized", "merged"].includes(entry.decision)) expect(entry.reason.length).toBeGreaterThan(0);
          else expect(json).toContain(JSON.stringify(item.text).slice(1, -1));
        });
        // The input is left as it was given.
        expect(importLangChainMessages(messages)).toEqual(items);
      }),
      { numRuns: 150 },
    );
  });
});
