// Invariants of the loop for any script the model may follow (answers, tool calls good and bad,
// failures retryable or not, waits asked for, aborts mid-answer and mid-wait) over any number of
// calls, with the process crashing between any two appends and a fresh loop resuming (either
// interruptedToolCalls policy), against a real JSON-lines store:
// - the log always loads and always builds;
// - after every call that did not crash, every call in the log is answered by exactly one result,
//   right after it;
// - each call's `persisted` is exactly what it appended, and ends the log;
// - every request the model was sent satisfies the provider's rules (OpenAI and Anthropic);
// - a failed call persists exactly one error message (its final failure), any other call none;
// - no failure's text ever reaches a request;
// - a tool runs at most once per call, and a second time only when rerun after a crash;
// - the events of every call are numbered 1..N, crashed calls included.
import { checkRules, openAIChatRules } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin, anthropicMessagesRules } from "@ctxpipe/renderers";
import type { StoredMessage } from "@ctxpipe/store";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crashingStore, SimulatedCrash, tempStore } from "../__fixtures__/loop-fixtures.js";
import { ChatLoop } from "../chat/chat-loop.js";
import { type ScriptedAnswer, scriptedModel } from "../model/scripted-model.js";
import type { LoopTool, ToolRunContext } from "../tools/loop-tool.js";
import type { LoopResult } from "./loop-result.js";
import type { InterruptedToolCallsPolicy } from "./settle-interrupted-calls.js";

/** The tools, recording each run with the policy of the loop that ran it. */
function toolsRecording(runs: Array<Pick<ToolRunContext, "callId" | "interrupted"> & { policy: InterruptedToolCallsPolicy }>, policy: () => InterruptedToolCallsPolicy): LoopTool[] {
  const record = (context: ToolRunContext) => runs.push({ callId: context.callId, interrupted: context.interrupted, policy: policy() });
  return [
    {
      name: "echo",
      run: (args, context) => {
        record(context);
        return args;
      },
    },
    {
      name: "boom",
      run: (_, context) => {
        record(context);
        throw new Error("boom");
      },
    },
    {
      name: "empty",
      run: (_, context) => {
        record(context);
        return "";
      },
    },
  ];
}

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
  inputs: fc.array(
    fc.record({
      text: fc.oneof(fc.string({ maxLength: 20 }), fc.constant("continue")),
      /** The process dies at this call's append after this many (none: it does not crash). */
      crashAfter: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined, freq: 2 }),
      /** The policy of the loop made for this call, when the previous one crashed. */
      policy: fc.constantFrom("answer" as const, "rerun" as const),
    }),
    { minLength: 1, maxLength: 5 },
  ),
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
  it("keeps the log loadable, calls paired after crashes and resumption, persisted exact, one error per failed call, no failure text sent, requests provider-valid and events numbered", async () => {
    /** What the scripts exercised, over all runs: the property says little if crashes never cut a tool loop. */
    const exercised = { crashes: 0, answered: 0, rerun: 0 };
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
        const runs: Array<Pick<ToolRunContext, "callId" | "interrupted"> & { policy: InterruptedToolCallsPolicy }> = [];
        let policy: InterruptedToolCallsPolicy = "answer";
        const tools = toolsRecording(runs, () => policy);
        let waits = 0;
        /** A new loop, as a restarted process makes, over a store that dies after `crashAfter` appends. */
        const newLoop = (crashAfter: number | undefined) => {
          const loopStore = crashAfter === undefined ? store : crashingStore(store, crashAfter);
          const loop = new ChatLoop({
            model,
            store: loopStore,
            tools,
            maxTurns: 4,
            maxRetries,
            maxRetryDelayMs: 60_000,
            random: () => 0.5,
            interruptedToolCalls: policy,
            sleep: async () => {
              if (abortInWait[waits++] === true) controller.abort();
            },
            ...(renderer === "anthropic" ? { plugins: [new AnthropicMessagesRendererPlugin()] } : {}),
          });
          return loop;
        };
        const send = async (input: string | undefined, crashAfter: number | undefined) => {
          controller = new AbortController();
          const before = (await store.load("c")).messages;
          if (input !== undefined && before.length === 0 && input.trim() === "") {
            await expect(newLoop(crashAfter).send({ conversationId: "c", userInput: input })).rejects.toThrow(/userInput: there is nothing to send/);
            return;
          }
          const sequences: number[] = [];
          let result: LoopResult;
          try {
            result = await newLoop(crashAfter).send({
              conversationId: "c",
              ...(input === undefined ? {} : { userInput: input }),
              signal: controller.signal,
              onEvent: (event) => sequences.push(event.sequence),
            });
          } catch (error) {
            expect(error).toBeInstanceOf(SimulatedCrash);
            exercised.crashes++;
            expect(sequences).toEqual(sequences.map((_, index) => index + 1));
            // What was appended before the crash loads, and only the process died: the next call resumes.
            await store.load("c");
            return;
          }
          expect(sequences).toEqual(sequences.map((_, index) => index + 1));
          const { messages } = await store.load("c");
          expect(messages.slice(before.length).map((message) => message.id)).toEqual(result.persisted.map((message) => message.id));
          const errors = result.persisted.filter((message) => message.partType === "error");
          expect(errors).toHaveLength(result.status === "failed" ? 1 : 0);
          if (result.status === "failed") expect(result.persisted.at(-1)).toBe(errors[0]);
          if (result.status === "completed") expect(result.persisted.at(-1)).toMatchObject({ role: "assistant" });
          checkPairing(messages);
        };
        for (const { text, crashAfter, policy: next } of inputs) {
          policy = next;
          await send(text, crashAfter);
        }
        // A last process resumes from whatever the session left, with no input.
        if ((await store.load("c")).messages.length > 0) await send(undefined, undefined);

        for (const call of model.calls) expect(JSON.stringify(call.request)).not.toMatch(new RegExp(`${FAILURE_MARK}|LLM_ERROR`));
        for (const call of model.calls) {
          const rules = renderer === "openai" ? openAIChatRules : anthropicMessagesRules;
          const violations = checkRules(rules as never, call.request).filter((violation) => violation.level === "error");
          expect(violations).toEqual([]);
        }
        for (const message of (await store.load("c")).messages) {
          if (message.interrupted === true) exercised[message.rerun === true ? "rerun" : "answered"]++;
        }
        // A tool runs once per call, and once more only when a loop with "rerun" finds the call interrupted.
        const first = runs.filter((run) => !run.interrupted).map((run) => run.callId);
        expect(new Set(first).size).toBe(first.length);
        const again = runs.filter((run) => run.interrupted);
        for (const run of again) expect(run.policy).toBe("rerun");
        expect(new Set(again.map((run) => run.callId)).size).toBe(again.length);
      }),
      // A fixed seed keeps the suite deterministic; change it to explore other scripts.
      { numRuns: 60, seed: 23 },
    );
    expect(exercised.crashes).toBeGreaterThan(10);
    expect(exercised.answered).toBeGreaterThan(0);
    expect(exercised.rerun).toBeGreaterThan(0);
  }, 120_000);
});
