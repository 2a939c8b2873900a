// Invariants of the loop for any script the model may follow (answers, tool calls good and bad,
// failures retryable or not, waits asked for, aborts mid-answer and mid-wait) over any number of
// calls, against a real JSON-lines store:
// - the log always loads and always builds;
// - every call in the log is answered by exactly one result, right after it;
// - each call's `persisted` is exactly what it appended, and ends the log;
// - every request the model was sent satisfies the provider's rules (OpenAI and Anthropic);
// - a failed call persists exactly one error message (its final failure), any other call none;
// - no failure's text ever reaches a request.
import { checkRules, openAIChatRules } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin, anthropicMessagesRules } from "@ctxpipe/renderers";
import type { StoredMessage } from "@ctxpipe/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tempStore } from "../__fixtures__/loop-fixtures.js";
import { ChatLoop } from "../chat/chat-loop.js";
import { type ScriptedAnswer, scriptedModel } from "../model/scripted-model.js";
import type { LoopTool } from "../tools/loop-tool.js";

const tools: LoopTool[] = [
  { name: "echo", run: (args) => args },
  {
    name: "boom",
    run: () => {
      throw new Error("boom");
    },
  },
  { name: "empty", run: () => "" },
];

const toolCallArbitrary = fc.record({
  name: fc.constantFrom("echo", "boom", "empty", "missing"),
  arguments: fc.oneof(fc.dictionary(fc.constantFrom("a", "b"), fc.string({ maxLength: 8 }), { maxKeys: 2 }), fc.constantFrom("{", "[1]", "")),
});

/** Every failure's message carries this, so a request that holds it holds a failure's text. */
const FAILURE_MARK = "FAILURE-7f3a";

/** "abort": the caller aborts while this answer streams. */
const answerArbitrary: fc.Arbitrary<ScriptedAnswer | "abort"> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ text: fc.string({ maxLength: 30 }) }) },
  { weight: 3, arbitrary: fc.record({ text: fc.constantFrom("", "Let me check."), toolCalls: fc.array(toolCallArbitrary, { minLength: 1, maxLength: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        error: fc.record(
          {
            message: fc.constantFrom(`${FAILURE_MARK} overloaded`, `${FAILURE_MARK} bad key`),
            status: fc.constantFrom(400, 429, 503),
            retryAfterMs: fc.constantFrom(0, 2000, 600_000),
          },
          { requiredKeys: ["message", "status"] },
        ),
      },
    ),
  },
  { weight: 1, arbitrary: fc.constant("abort" as const) },
);

const sessionArbitrary = fc.record({
  answers: fc.array(answerArbitrary, { minLength: 1, maxLength: 12 }),
  inputs: fc.array(fc.oneof(fc.string({ maxLength: 20 }), fc.constant("continue")), { minLength: 1, maxLength: 4 }),
  renderer: fc.constantFrom("openai" as const, "anthropic" as const),
  maxRetries: fc.integer({ min: 0, max: 2 }),
  /** One per wait before a retry, in order: true aborts the call during that wait. */
  abortInWait: fc.array(fc.boolean(), { maxLength: 6 }),
});

function checkPairing(messages: ReadonlyArray<StoredMessage>) {
  messages.forEach((message, index) => {
    const calls = (message.tool_calls ?? []) as Array<{ id: string }>;
    const results = messages.slice(index + 1, index + 1 + calls.length);
    expect(results.map((result) => result.tool_call_id)).toEqual(calls.map((call) => call.id));
  });
  const answered = messages.filter((message) => message.role === "tool").map((message) => message.tool_call_id);
  expect(new Set(answered).size).toBe(answered.length);
}

describe("the tool loop, for any script", () => {
  it("keeps the log loadable, calls paired, persisted exact, one error per failed call, no failure text sent and requests provider-valid", async () => {
    await fc.assert(
      fc.asyncProperty(sessionArbitrary, async ({ answers, inputs, renderer, maxRetries, abortInWait }) => {
        const { store } = tempStore();
        let controller = new AbortController();
        const script = answers.map((answer) =>
          answer === "abort"
            ? () => {
                controller.abort();
                return { text: "too late" };
              }
            : answer,
        );
        const model = scriptedModel(script, { renderer, repeatLast: true });
        let waits = 0;
        const loop = new ChatLoop({
          model,
          store,
          tools,
          maxTurns: 4,
          maxRetries,
          maxRetryDelayMs: 60_000,
          random: () => 0.5,
          sleep: async () => {
            if (abortInWait[waits++] === true) controller.abort();
          },
          ...(renderer === "anthropic" ? { plugins: [new AnthropicMessagesRendererPlugin()] } : {}),
        });
        for (const input of inputs) {
          controller = new AbortController();
          const before = (await store.load("c")).messages.length;
          if (before === 0 && input.trim() === "") {
            await expect(loop.send({ conversationId: "c", userInput: input })).rejects.toThrow(/userInput: there is nothing to send/);
            continue;
          }
          const result = await loop.send({ conversationId: "c", userInput: input, signal: controller.signal });
          const { messages } = await store.load("c");
          expect(messages.slice(before).map((message) => message.id)).toEqual(result.persisted.map((message) => message.id));
          const errors = result.persisted.filter((message) => message.partType === "error");
          expect(errors).toHaveLength(result.status === "failed" ? 1 : 0);
          if (result.status === "failed") expect(result.persisted.at(-1)).toBe(errors[0]);
          if (result.status === "completed") expect(result.persisted.at(-1)).toMatchObject({ role: "assistant" });
          checkPairing(messages);
        }
        for (const call of model.calls) expect(JSON.stringify(call.request)).not.toMatch(new RegExp(`${FAILURE_MARK}|LLM_ERROR`));
        for (const call of model.calls) {
          const rules = renderer === "openai" ? openAIChatRules : anthropicMessagesRules;
          const violations = checkRules(rules as never, call.request).filter((violation) => violation.level === "error");
          expect(violations).toEqual([]);
        }
      }),
      // A fixed seed keeps the suite deterministic; change it to explore other scripts.
      { numRuns: 60, seed: 23 },
    );
  }, 120_000);
});
