// Properties of `ctxpipe build` over random stored conversations written in random layouts: the output
// is the library's build of the same messages, and a bad record is named by the line it is on.
import { CompressionPlugin } from "@ctxpipe/compression";
import { createPipeline, importStoredMessages } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin, GeminiRendererPlugin, OpenAIResponsesRendererPlugin } from "@ctxpipe/renderers";
import { TokenizerPlugin } from "@ctxpipe/tokenizers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../__fixtures__/run-in-process.js";

type Stored = Record<string, unknown> & { id: string };

const text = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("USER_INPUT\nfix the build", "构建失败了，请看日志。", '{"ok":true}', "<|endoftext|> 🚀"));

/** Turns of a user message, then an assistant message with 0–2 tool calls, each answered. */
const conversation = fc
  .array(fc.record({ question: text, answer: text, calls: fc.array(fc.record({ name: fc.constantFrom("read_file", "run"), output: text }), { maxLength: 2 }) }), { minLength: 1, maxLength: 6 })
  .map((turns) => {
    const messages: Stored[] = [];
    turns.forEach((turn, index) => {
      messages.push({ id: `u${index}`, role: "user", content: turn.question });
      const calls = turn.calls.map((call, position) => ({ id: `c${index}_${position}`, ...call }));
      messages.push({
        id: `a${index}`,
        role: "assistant",
        content: turn.answer,
        ...(calls.length === 0 ? {} : { tool_calls: calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: "{}" } })) }),
      });
      for (const call of calls) messages.push({ id: `t${call.id}`, role: "tool", tool_call_id: call.id, content: call.output });
    });
    messages.push({ id: "last", role: "user", content: "and now?" });
    return messages;
  });

/** How the records are laid out in the file, and the line each one lands on. */
const layout = fc.record({ json: fc.boolean(), crlf: fc.boolean(), blankBefore: fc.array(fc.nat({ max: 2 }), { minLength: 40, maxLength: 40 }) });

function write(messages: ReadonlyArray<unknown>, how: { json: boolean; crlf: boolean; blankBefore: number[] }): { text: string; lines: number[] } {
  if (how.json) return { text: JSON.stringify(messages, null, 1), lines: [] };
  const newline = how.crlf ? "\r\n" : "\n";
  const lines: number[] = [];
  let text = "";
  let line = 0;
  messages.forEach((message, index) => {
    const blanks = how.blankBefore[index % how.blankBefore.length] ?? 0;
    text += newline.repeat(blanks);
    line += blanks + 1;
    lines.push(line);
    text += JSON.stringify(message) + newline;
  });
  return { text, lines };
}

const library = createPipeline({
  plugins: [new TokenizerPlugin(), new OpenAIResponsesRendererPlugin(), new AnthropicMessagesRendererPlugin(), new GeminiRendererPlugin(), new CompressionPlugin({ strategies: ["clear-tool-results", "sliding-window"] })],
});

describe("ctxpipe build over random conversations", () => {
  it("prints the library's build of the same messages, whatever the layout", async () => {
    await fc.assert(
      fc.asyncProperty(conversation, layout, fc.constantFrom("openai", "openai-responses", "anthropic"), async (messages, how, provider) => {
        const { text } = write(messages, how);
        const run = await runInProcess(["build", "-", "--provider", provider, "--format", how.json ? "json" : "jsonl"], { stdin: text });
        expect(run.stderr).toBe("");
        expect(run.code).toBe(0);
        const output = JSON.parse(run.stdout);
        const expected = await library.build(importStoredMessages(messages), { renderer: provider as "openai", model: "gpt-4o", maxTokens: 128_000, reserveOutputTokens: 16_384 });
        expect(output.request).toEqual(expected.request);
        expect(output.tokenCount).toBe(expected.tokenCount);
        expect([...output.includedIds, ...output.excludedIds].sort()).toEqual(messages.map((message) => message.id).sort());
      }),
      { numRuns: 40 },
    );
  });

  it("names the line (or index) and the id of a record it refuses", async () => {
    await fc.assert(
      fc.asyncProperty(conversation, layout, fc.nat(), async (messages, how, pick) => {
        const index = pick % messages.length;
        const broken = messages.map((message, position) => (position === index ? { ...message, role: "robot" } : message));
        const { text, lines } = write(broken, how);
        const run = await runInProcess(["build", "-", "--format", how.json ? "json" : "jsonl"], { stdin: text });
        expect(run.code).toBe(2);
        expect(run.stdout).toBe("");
        const where = how.json ? `index ${index}` : `line ${lines[index]}`;
        expect(run.stderr.split("\n")[0]).toMatch(new RegExp(`^ctxpipe: standard input ${where} \\(id "${messages[index]!.id}"\\), field role: `));
      }),
      { numRuns: 40 },
    );
  });
});
