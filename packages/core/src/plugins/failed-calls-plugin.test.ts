import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { importStoredMessages } from "../importers/import-stored-messages.js";
import type { ItemInput } from "../model/item.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { adversarialConversations } from "../testing/adversarial-conversations.js";
import { persistedFailures } from "../testing/adversarial/persisted-failures.js";
import { buildWith, wordTokenizer } from "../testing/index.js";
import { FailedCallsPlugin } from "./failed-calls-plugin.js";

/** What the loops persist for a failed call (formatModelFailure in @ctxpipe/loop). */
function loopFailure(code: string, message: string, status?: number): string {
  const lines = ["LLM_ERROR", `- Code: ${code}`, ...(status === undefined ? [] : [`- Status: ${status}`]), `- Message: ${message}`, ""];
  return [...lines, "The previous model call failed before it produced an answer. Continue from where the conversation stands."].join("\n");
}

const OVERLOADED = loopFailure("LLM_HTTP_ERROR", "anthropic: HTTP 529: Overloaded", 529);
const OMITTED = "not sent, so the model does not imitate it; it stays in the log";

const asked: ItemInput = { id: "u1", type: "user", text: "What is the weather in Paris?" };
const again: ItemInput = { id: "u2", type: "user", text: "continue" };
const note = new FailedCallsPlugin({ failures: "note" });

describe("FailedCallsPlugin", () => {
  test("one failure then \"continue\": the failure is not sent, and the report says why", async () => {
    const failure: ItemInput = { id: "e1", type: "error", text: OVERLOADED };
    const result = await buildWith([], [asked, failure, again]);
    expect(result.request.messages).toEqual([
      { role: "user", content: "What is the weather in Paris?" },
      { role: "user", content: "continue" },
    ]);
    const reason = `a failed model call (LLM_HTTP_ERROR, overloaded): ${OMITTED}`;
    expect(result.report.entries[1]).toEqual({
      id: "e1",
      inputIndex: 1,
      type: "error",
      role: "assistant",
      decision: "dropped",
      stage: "filter",
      plugin: "FailedCallsPlugin",
      reason,
      tokens: wordTokenizer.count(OVERLOADED),
      tokensSaved: wordTokenizer.count(OVERLOADED),
      history: [{ decision: "dropped", stage: "filter", plugin: "FailedCallsPlugin", reason }],
    });
    expect(result.excludedIds).toEqual(["e1"]);
  });

  test("three identical failures: none is sent by default, and with notes one note stands for all three", async () => {
    const items: ItemInput[] = [asked, ...["e1", "e2", "e3"].map((id): ItemInput => ({ id, type: "error", text: OVERLOADED })), again];
    const omitted = await buildWith([], items);
    expect(omitted.request.messages.map((message) => message.content)).toEqual(["What is the weather in Paris?", "continue"]);
    expect(omitted.report.entries.slice(1, 4).map((entry) => [entry.id, entry.decision])).toEqual([
      ["e1", "dropped"],
      ["e2", "dropped"],
      ["e3", "dropped"],
    ]);

    const noted = await buildWith([note], items);
    expect(noted.request.messages).toEqual([
      { role: "user", content: "What is the weather in Paris?" },
      { role: "assistant", content: "(The previous 3 attempts failed: overloaded.)" },
      { role: "user", content: "continue" },
    ]);
    const instead = 'a failed model call (LLM_HTTP_ERROR, overloaded): not sent, so the model does not imitate it; the note "ctxpipe:failed-call-note:e3" is sent instead; it stays in the log';
    expect(noted.report.entries.slice(1, 4).map(({ id, decision, reason }) => ({ id, decision, reason }))).toEqual([
      { id: "e1", decision: "dropped", reason: instead },
      { id: "e2", decision: "dropped", reason: instead },
      { id: "e3", decision: "dropped", reason: instead },
    ]);
    expect(noted.report.synthesized.find((entry) => entry.id === "ctxpipe:failed-call-note:e3")).toEqual({
      id: "ctxpipe:failed-call-note:e3",
      inputIndex: undefined,
      type: "assistant",
      role: "assistant",
      decision: "synthesized",
      stage: "filter",
      plugin: "FailedCallsPlugin",
      reason: 'stands for the 3 failed model calls "e1", "e2", "e3", in a row with the same cause',
      tokens: wordTokenizer.count("(The previous 3 attempts failed: overloaded.)"),
      messageIndex: 1,
      history: [{ decision: "synthesized", stage: "filter", plugin: "FailedCallsPlugin", reason: 'stands for the 3 failed model calls "e1", "e2", "e3", in a row with the same cause' }],
    });
  });

  test("the same failure after each \"continue\" is noted once: asking again does not end a run, an answer does", async () => {
    const failure = (id: string): ItemInput => ({ id, type: "error", text: OVERLOADED });
    const result = await buildWith(
      [note],
      [asked, failure("e1"), { ...again, id: "u2" }, failure("e2"), { ...again, id: "u3" }, { id: "a1", type: "assistant", text: "It is sunny." }, { id: "u4", type: "user", text: "And tomorrow?" }, failure("e3")],
    );
    expect(result.request.messages).toEqual([
      { role: "user", content: "What is the weather in Paris?" },
      { role: "user", content: "continue" },
      { role: "assistant", content: "(The previous 2 attempts failed: overloaded.)" },
      { role: "user", content: "continue" },
      { role: "assistant", content: "It is sunny." },
      { role: "user", content: "And tomorrow?" },
      { role: "assistant", content: "(The previous attempt failed: overloaded.)" },
      { role: "user", content: "Continue." },
    ]);
  });

  test("failures with different causes in a row get a note each", async () => {
    const result = await buildWith(
      [note],
      [asked, { id: "e1", type: "error", text: "LLM_TIMEOUT: no answer", code: "LLM_TIMEOUT" }, { id: "e2", type: "error", text: OVERLOADED }, again],
    );
    expect(result.request.messages.map((message) => message.content)).toEqual([
      "What is the weather in Paris?",
      "(The previous attempt failed: timed out.)",
      "(The previous attempt failed: overloaded.)",
      "continue",
    ]);
    expect(result.report.entries.slice(1, 3).map((entry) => entry.decision)).toEqual(["dropped", "dropped"]);
    expect(result.report.synthesized.map((entry) => entry.id)).toEqual(expect.arrayContaining(["ctxpipe:failed-call-note:e1", "ctxpipe:failed-call-note:e2"]));
  });

  test.for([
    { case: "the loops' text, with status", text: loopFailure("LLM_HTTP_ERROR", "openai: HTTP 503: upstream unavailable", 503), label: "LLM_HTTP_ERROR, HTTP 503 service unavailable" },
    { case: "a rate limit", text: loopFailure("LLM_HTTP_ERROR", "openai: HTTP 429 Too Many Requests: Rate limit reached", 429), label: "LLM_HTTP_ERROR, rate limited" },
    { case: "an overloaded endpoint behind 503", text: loopFailure("LLM_HTTP_ERROR", "upstream model overloaded", 503), label: "LLM_HTTP_ERROR, overloaded" },
    { case: "a timeout code", text: "LLM_TIMEOUT: the model did not answer in time.", label: "LLM_TIMEOUT, timed out" },
    { case: "a network failure", text: loopFailure("LLM_NETWORK_ERROR", "anthropic: the connection broke: ECONNRESET"), label: "LLM_NETWORK_ERROR, network error" },
    { case: "an unauthorized key", text: loopFailure("LLM_HTTP_ERROR", "openai: HTTP 401: Incorrect API key provided", 401), label: "LLM_HTTP_ERROR, HTTP 401 unauthorized" },
    { case: "a bad key by its provider code", text: "invalid_api_key: Incorrect API key provided", label: "authentication failed" },
    { case: "a prompt too long", text: "Error: prompt is too long: 210000 tokens > 200000 maximum", label: "request too long" },
    { case: "words alone", text: "rate limited", label: "rate limited" },
    { case: "nothing recognisable", text: "Something odd happened: <<<IMITATE ME>>>", label: "cause unknown" },
    { case: "no text", text: "", label: "cause unknown" },
  ])("the note names the cause in fixed words, never the raw text: $case", async ({ text, label }) => {
    const result = await buildWith([note], [asked, { id: "e1", type: "error", text }, again]);
    const cause = label.split(", ").at(-1);
    const noteText = cause === "cause unknown" ? "(The previous attempt failed.)" : `(The previous attempt failed: ${cause}.)`;
    expect(result.request.messages[1]).toEqual({ role: "assistant", content: noteText });
    expect(result.report.entries[1]!.reason).toBe(`a failed model call (${label}): not sent, so the model does not imitate it; the note "ctxpipe:failed-call-note:e1" is sent instead; it stays in the log`);
    const others = JSON.stringify(result.request.messages.filter((_, index) => index !== 1));
    if (text !== "") expect(others).not.toContain(JSON.stringify(text).slice(1, -1));
  });

  test("a loop-persisted failure read by importStoredMessages is left out; the code comes from the stored errorCode", async () => {
    const stored = [
      { id: "m1", role: "user", content: "USER_INPUT\nWhat is the weather in Paris?", createdAt: "2026-01-01T10:00:00.000Z", mode: "chat", runId: "chat-c1" },
      {
        id: "m2",
        role: "assistant",
        content: loopFailure("LLM_HTTP_ERROR", "anthropic: HTTP 529: Overloaded", 529),
        partType: "error",
        errorCode: "LLM_HTTP_ERROR",
        errorFingerprint: "LLM_HTTP_ERROR|529||anthropic: HTTP 529: Overloaded",
        createdAt: "2026-01-01T10:00:01.000Z",
        mode: "chat",
        runId: "chat-c1",
      },
      { id: "m3", role: "user", content: "USER_INPUT\ncontinue", createdAt: "2026-01-01T10:00:02.000Z", mode: "chat", runId: "chat-c1" },
    ];
    const items = importStoredMessages(stored);
    expect(items[1]).toMatchObject({ type: "error", metadata: { extra: { errorCode: "LLM_HTTP_ERROR" } } });
    const result = await buildWith([], items);
    expect(result.request.messages).toEqual([
      { role: "user", content: "USER_INPUT\nWhat is the weather in Paris?" },
      { role: "user", content: "USER_INPUT\ncontinue" },
    ]);
    expect(result.report.entries[1]).toMatchObject({ id: "m2", decision: "dropped", plugin: "FailedCallsPlugin", reason: `a failed model call (LLM_HTTP_ERROR, overloaded): ${OMITTED}` });
    // Build time only: the items handed in are untouched.
    expect(items[1]).toMatchObject({ id: "m2", type: "error", text: stored[1]!.content });
  });

  test("a plain assistant message that starts with LLM_ERROR (a store without partType) is a failure too; one that only mentions it is not", async () => {
    const result = await buildWith(
      [],
      [
        asked,
        { id: "a1", type: "assistant", text: OVERLOADED },
        again,
        { id: "a2", type: "assistant", text: "The log said LLM_ERROR twice." },
        { id: "a3", type: "assistant", text: "LLM_ERRORS are rare." },
        { id: "u3", type: "user", text: "Thanks." },
      ],
    );
    expect(result.excludedIds).toEqual(["a1"]);
    expect(result.report.entries[1]).toMatchObject({ id: "a1", type: "assistant", decision: "dropped", reason: `a failed model call (LLM_HTTP_ERROR, overloaded): ${OMITTED}` });
  });

  test("errorTextPrefixes names the words that mark a failure; an empty list recognises error items only", async () => {
    const items: ItemInput[] = [asked, { id: "a1", type: "assistant", text: "MODEL FAILED: timeout" }, { id: "a2", type: "assistant", text: OVERLOADED }, again];
    const custom = await buildWith([new FailedCallsPlugin({ errorTextPrefixes: ["MODEL FAILED:"] })], items);
    expect(custom.excludedIds).toEqual(["a1"]);
    const none = await buildWith([new FailedCallsPlugin({ errorTextPrefixes: [] })], items);
    expect(none.excludedIds).toEqual([]);
  });

  test("when leaving the failures out would leave nothing to send, a note stands in for them as an item of its own", async () => {
    const result = await buildWith([], [{ id: "e1", type: "error", text: OVERLOADED }, { id: "e2", type: "error", text: OVERLOADED }]);
    expect(result.request.messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "(The conversation so far is below.)"],
      ["assistant", "(The previous 2 attempts failed: overloaded.)"],
      ["user", "Continue."],
    ]);
    expect(result.report.entries.map((entry) => [entry.id, entry.decision])).toEqual([
      ["e1", "dropped"],
      ["e2", "dropped"],
    ]);
    expect(result.report.synthesized.find((entry) => entry.id === "ctxpipe:failed-call-note:e2")).toMatchObject({
      decision: "synthesized",
      stage: "filter",
      plugin: "FailedCallsPlugin",
      reason: 'stands for the 2 failed model calls "e1", "e2", in a row with the same cause: without it nothing would be sent',
    });
  });

  test("switched off with defaults: { failedCalls: false }, a failure is sent as it was stored", async () => {
    const result = await createPipeline({ defaults: { failedCalls: false } }).build([asked, { id: "e1", type: "error", text: "LLM_TIMEOUT: no answer" }, again], { tokenizer: wordTokenizer });
    expect(result.request.messages[1]).toEqual({ role: "assistant", content: "LLM_TIMEOUT: no answer" });
  });

  test("bad options are refused in the constructor, naming the plugin and the field", () => {
    expect(() => new FailedCallsPlugin({ failures: "replay" as never })).toThrow(
      expect.objectContaining({ name: "PluginOptionsError", code: "OPTIONS_INVALID", plugin: "FailedCallsPlugin", message: expect.stringContaining("failures") }),
    );
    expect(() => new FailedCallsPlugin({ errorTextPrefixes: ["  "] })).toThrow(expect.objectContaining({ plugin: "FailedCallsPlugin", message: expect.stringContaining("errorTextPrefixes") }));
    expect(() => new FailedCallsPlugin({ failure: "note" } as never)).toThrow(expect.objectContaining({ plugin: "FailedCallsPlugin", message: expect.stringContaining("failure") }));
  });
});

/** Items that are failed calls, as the plugin's defaults recognise them. */
function failuresIn(items: ReadonlyArray<ItemInput>): Array<{ index: number; text: string }> {
  return items.flatMap((item, index) => {
    if (item.type === "error") return [{ index, text: item.text }];
    if (item.type === "assistant" && (item.toolCalls ?? []).length === 0 && /^\s*LLM_ERROR(?!\w)/.test(item.text ?? "")) return [{ index, text: item.text ?? "" }];
    return [];
  });
}

const withFailures = fc.tuple(adversarialConversations(fc), persistedFailures(fc)).map(([items, perturb]) => perturb(items));
const NOTE = /^\(The previous (?:\d+ attempts|attempt) failed(?:: [a-zA-Z0-9 ]+)?\.\)$/;

/**
 * The stored text of a failure that reached the request, leaving notes aside; undefined when none did.
 * A failure text that another item holds too (an edited message that kept it) says nothing either way.
 */
function leakedFailure(request: { messages: ReadonlyArray<{ content?: unknown }> }, items: ReadonlyArray<ItemInput>): string | undefined {
  const sent = JSON.stringify(request.messages.filter((message) => !(typeof message.content === "string" && NOTE.test(message.content))));
  const failures = failuresIn(items);
  const failed = new Set(failures.map((failure) => failure.index));
  const others = JSON.stringify(items.filter((_, index) => !failed.has(index)));
  const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
  return failures
    .map((failure) => failure.text.trim())
    .find((text) => text !== "" && !others.includes(escaped(text)) && sent.includes(escaped(text)));
}

describe("FailedCallsPlugin, for any stored history with failures", () => {
  test("by default every such history builds, no failure text is sent, and every failure is reported as left out with a reason", async () => {
    await fc.assert(
      fc.asyncProperty(withFailures, async (items) => {
        // Never refused: a history of failures alone is sent as a note.
        const result = await buildWith([], items, { system: "You are terse." });
        expect(leakedFailure(result.request, items)).toBeUndefined();
        for (const failure of failuresIn(items)) {
          // Entries follow the input; a copy or an earlier version of a message is left out before this stage.
          const entry = result.report.entries[failure.index]!;
          expect(entry.decision).toBe("dropped");
          if (entry.plugin === "FailedCallsPlugin") {
            expect(entry.reason).toMatch(/^a failed model call \(.+\): not sent, so the model does not imitate it(?:; the note "ctxpipe:failed-call-note:[^"]+" is sent instead)?; it stays in the log$/);
          } else {
            expect(entry.stage).not.toBe("render");
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  test("with notes, no raw failure text is sent either, and a note never follows an identical note", async () => {
    await fc.assert(
      fc.asyncProperty(withFailures, async (items) => {
        const result = await buildWith([note], items, { system: "You are terse." });
        expect(leakedFailure(result.request, items)).toBeUndefined();
        const assistantTexts = result.request.messages.filter((message) => message.role === "assistant").map((message) => message.content);
        assistantTexts.forEach((text, index) => {
          if (typeof text === "string" && text.startsWith("(The previous")) expect(assistantTexts[index + 1]).not.toBe(text);
        });
        for (const failure of failuresIn(items)) {
          expect(result.report.entries[failure.index]!.decision).toBe("dropped");
        }
      }),
      { numRuns: 300 },
    );
  });

  test("a pipeline reused as the history grows gives what a new pipeline gives", async () => {
    await fc.assert(
      fc.asyncProperty(withFailures, fc.constantFrom<"omit" | "note">("omit", "note"), async (items, failures) => {
        const reused = createPipeline({ plugins: [new FailedCallsPlugin({ failures })] });
        const outcome = async (pipeline: ReturnType<typeof createPipeline>, history: ItemInput[]) => {
          try {
            const { request, report } = await pipeline.build(history, { tokenizer: wordTokenizer });
            return JSON.stringify({ request, entries: report.entries });
          } catch (error) {
            return String(error);
          }
        };
        for (let length = 1; length <= items.length; length++) {
          const history = items.slice(0, length);
          expect(await outcome(reused, history)).toBe(await outcome(createPipeline({ plugins: [new FailedCallsPlugin({ failures })] }), history));
        }
      }),
      { numRuns: 60 },
    );
  });
});
