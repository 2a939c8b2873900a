// One test per cause of a rejected request that repair-orphans handles (reference/providers.md §8),
// each checking the repaired request and the report entry that explains the repair.
import { describe, expect, test } from "vitest";
import { importMemoryChunks } from "../importers/import-memory-chunks.js";
import type { ItemInput } from "../model/item.js";
import type { ReportEntry } from "../pipeline/build-report.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { buildWith, wordTokenizer } from "../testing/index.js";
import { RepairOrphansPlugin } from "./repair-orphans-plugin.js";

const user: ItemInput = { id: "u", type: "user", text: "check both" };
const twoCalls: ItemInput = {
  id: "a",
  type: "assistant",
  text: "",
  toolCalls: [
    { id: "c1", name: "read", arguments: '{"f":1}' },
    { id: "c2", name: "read", arguments: '{"f":2}' },
  ],
};
const result = (id: string, callId: string, output = id): ItemInput => ({ id, type: "tool-result", callId, output });
const said = (id: string, text: string, type: "user" | "assistant" = "user"): ItemInput => ({ id, type, text });
const entry = (built: { report: { entries: ReadonlyArray<ReportEntry> } }, id: string) => built.report.entries.find((candidate) => candidate.id === id);

describe("RepairOrphansPlugin: results and calls", () => {
  test("drops a tool result whose call is not in the context (seed 004)", async () => {
    const built = await buildWith([], [user, said("a0", "ok", "assistant"), result("orphan", "gone", "stale"), said("u2", "next")]);
    expect(built.excludedIds).toEqual(["orphan"]);
    expect(entry(built, "orphan")).toMatchObject({ decision: "dropped", stage: "repair-orphans", plugin: "RepairOrphansPlugin", reason: 'no assistant message in the context made call "gone"' });
  });

  test("keeps an orphan result as user text when asked, so its content is not lost", async () => {
    const built = await buildWith([new RepairOrphansPlugin({ orphanResults: "text" })], [user, { ...result("orphan", "gone", "42 files"), toolName: "ls" } as ItemInput]);
    expect(built.request.messages.at(-1)).toEqual({ role: "user", content: "Result of an earlier ls call (gone):\n42 files" });
    expect(entry(built, "orphan")).toMatchObject({ decision: "repaired", reason: 'kept as user text: no assistant message in the context made call "gone"' });
  });

  test("synthesizes an interrupted result for a call that never got one, right after the call's other results", async () => {
    const built = await buildWith([], [user, twoCalls, result("r1", "c1", "one")]);
    expect(built.request.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "read", arguments: '{"f":1}' } },
          { id: "c2", type: "function", function: { name: "read", arguments: '{"f":2}' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "one" },
      { role: "tool", tool_call_id: "c2", content: "Error: The tool call was interrupted before it returned a result." },
    ]);
    expect(built.report.synthesized).toEqual([
      expect.objectContaining({ id: "ctxpipe:interrupted:a:c2", decision: "synthesized", stage: "repair-orphans", reason: 'answers call "c2" (read) of "a": it has no result (the run was interrupted)' }),
    ]);
  });

  test("strips a call without a result when asked, and drops a message left with nothing", async () => {
    const strip = new RepairOrphansPlugin({ unansweredCalls: "strip" });
    const partly = await buildWith([strip], [user, twoCalls, result("r1", "c1")]);
    expect(partly.request.messages[1]).toMatchObject({ tool_calls: [expect.objectContaining({ id: "c1" })] });
    expect(entry(partly, "a")).toMatchObject({ decision: "repaired", reason: 'removed calls "c2" (read), which have no result' });
    const wholly = await buildWith([strip], [user, twoCalls, said("u2", "never mind")]);
    expect(wholly.request.messages).toEqual([{ role: "user", content: "check both" }, { role: "user", content: "never mind" }]);
    expect(entry(wholly, "a")).toMatchObject({ decision: "dropped", reason: 'its only calls "c1" (read), "c2" (read) have no result' });
  });

  test("the synthesized text is configurable", async () => {
    const built = await buildWith([new RepairOrphansPlugin({ interruptedText: "Cancelled by the user." })], [user, twoCalls]);
    expect(built.request.messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: "c1", content: "Error: Cancelled by the user." },
      { role: "tool", tool_call_id: "c2", content: "Error: Cancelled by the user." },
    ]);
  });

  test("leaves a well-formed history alone", async () => {
    const built = await buildWith([], [user, twoCalls, result("r1", "c1"), result("r2", "c2")]);
    expect(built.report.entries.map((candidate) => candidate.decision)).toEqual(["kept", "kept", "kept", "kept"]);
    expect(built.report.synthesized).toEqual([]);
  });

  test("a result separated from its call by another message is moved back next to the call", async () => {
    const built = await buildWith([], [user, twoCalls, result("r1", "c1"), said("u2", "hurry up"), result("r2", "c2")]);
    expect(built.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "user"]);
    expect(entry(built, "r2")).toMatchObject({ decision: "repaired", reason: 'moved right after the assistant message "a" that made call "c2"' });
    expect(entry(built, "r1")).toMatchObject({ decision: "kept" });
  });

  test("a result stored before its call (clock skew) is moved after it", async () => {
    const built = await buildWith([], [user, result("r1", "c1"), twoCalls, result("r2", "c2")]);
    expect(built.request.messages.map((message) => ("tool_call_id" in message ? message.tool_call_id : message.role))).toEqual(["user", "assistant", "c1", "c2"]);
    expect(entry(built, "r1")).toMatchObject({ decision: "repaired", reason: 'moved right after the assistant message "a" that made call "c1"' });
  });

  test("parallel results out of order are put in the order of the calls", async () => {
    const built = await buildWith([], [user, twoCalls, result("r2", "c2"), result("r1", "c1")]);
    expect(built.request.messages.slice(2).map((message) => ("tool_call_id" in message ? message.tool_call_id : ""))).toEqual(["c1", "c2"]);
    expect(entry(built, "r1")).toMatchObject({ decision: "kept" });
    expect(entry(built, "r2")).toMatchObject({ decision: "repaired", reason: 'put in the order of the calls of "a"' });
  });

  test("thinking between a call and its result does not break the pairing", async () => {
    const built = await buildWith([], [user, { id: "a", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "f", arguments: "{}" }] }, { id: "th", type: "thinking", text: "waiting" }, result("r", "c1")]);
    expect(built.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
  });

  test("a second result for the same call is dropped", async () => {
    const built = await buildWith([], [user, twoCalls, result("r1", "c1"), result("r2", "c2"), result("again", "c1")]);
    expect(built.excludedIds).toEqual(["again"]);
    expect(entry(built, "again")).toMatchObject({ decision: "dropped", reason: 'a second result for call "c1"' });
  });

  test("a second copy of an assistant message (a double write under a new id) is dropped with its results", async () => {
    const copy = { ...twoCalls, id: "a-copy" } as ItemInput;
    const built = await buildWith([], [user, twoCalls, result("r1", "c1"), result("r2", "c2"), copy, result("r1-copy", "c1"), result("r2-copy", "c2")]);
    expect(built.request.messages).toHaveLength(4);
    expect(entry(built, "a-copy")).toMatchObject({ decision: "dropped", reason: 'a second copy of assistant message "a" (same text and calls)' });
    expect(entry(built, "r1-copy")).toMatchObject({ decision: "dropped", reason: 'a second result for call "c1"' });
  });

  test("a copy stored right after the original is dropped, not merged as a parallel call", async () => {
    const copy = { ...twoCalls, id: "a-copy" } as ItemInput;
    const built = await buildWith([], [user, twoCalls, copy, result("r1", "c1"), result("r2", "c2"), said("u2", "next")]);
    expect(built.request.messages[1]).toMatchObject({ tool_calls: [expect.objectContaining({ id: "c1" }), expect.objectContaining({ id: "c2" })] });
    expect(built.report.synthesized).toEqual([]);
    expect(entry(built, "a-copy")).toMatchObject({ decision: "dropped", reason: 'a second copy of assistant message "a" (same text and calls)' });
  });

  test("the same call repeated after the user spoke again is a new call (local models reuse call_0), with its own result", async () => {
    const read = (id: string): ItemInput => ({ id, type: "assistant", text: "", toolCalls: [{ id: "call_0", name: "read", arguments: '{"p":"a"}' }] });
    const built = await buildWith([], [user, read("a1"), result("r1", "call_0", "OLD"), said("u2", "read again"), read("a2"), result("r2", "call_0", "NEW"), said("u3", "and?")]);
    expect(built.excludedIds).toEqual([]);
    const sent = JSON.stringify(built.request);
    expect(sent).toContain("OLD");
    expect(sent).toContain("NEW");
    expect(built.report.synthesized).toEqual([]);
  });

  test("a result stored before its call is used only when nothing answers the call in place", async () => {
    const call0: ItemInput = { id: "a1", type: "assistant", text: "", toolCalls: [{ id: "call_0", name: "read", arguments: "{}" }] };
    const built = await buildWith([], [result("r0", "call_0", "STALE"), user, call0, result("r1", "call_0", "FRESH"), said("u2", "ok")]);
    expect(built.request.messages[2]).toEqual({ role: "tool", tool_call_id: "call_0", content: "FRESH" });
    expect(entry(built, "r0")).toMatchObject({ decision: "dropped", reason: 'a second result for call "call_0"' });
  });

  test("a lone surrogate in a call id does not separate the call from its result", async () => {
    const built = await buildWith([], [user, { id: "a", type: "assistant", text: "", toolCalls: [{ id: "c\uD83D", name: "f", arguments: "{}" }] }, result("r", "c\uD83D", "RESULT"), said("u2", "ok")]);
    expect(built.request.messages[2]).toMatchObject({ role: "tool", content: "RESULT", tool_call_id: "c_" });
    expect(built.report.synthesized).toEqual([]);
  });

  test("synthesized results never share an id, whatever the assistant and call ids contain", async () => {
    const built = await buildWith([], [
      user,
      { id: "a", type: "assistant", text: "", toolCalls: [{ id: "b:c", name: "f", arguments: "{}" }] },
      said("u2", "and"),
      { id: "a:b", type: "assistant", text: "", toolCalls: [{ id: "c", name: "f", arguments: "{}" }, { id: "c", name: "f", arguments: "{}" }, { id: "c:1", name: "f", arguments: "{}" }] },
    ]);
    const ids = built.report.synthesized.map((candidate) => candidate.id).filter((id) => id.startsWith("ctxpipe:interrupted"));
    expect(ids).toEqual(["ctxpipe:interrupted:a:b%3Ac", "ctxpipe:interrupted:a%3Ab:c", "ctxpipe:interrupted:a%3Ab:c:1", "ctxpipe:interrupted:a%3Ab:c%3A1"]);
  });

  test("over-long arguments are cut so that, wrapped under _raw and escaped, they still fit", async () => {
    const args = `{"c":"${"ab\n".repeat(2000)}"}`;
    const built = await buildWith([new RepairOrphansPlugin({ maxStringLength: 1000 })], [user, { id: "a", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "f", arguments: args }] }, result("r", "c1")]);
    const sent = (built.request.messages[1] as { tool_calls: Array<{ function: { arguments: string } }> }).tool_calls[0]!.function.arguments;
    expect(sent.length).toBeLessThanOrEqual(1000);
    expect(Object.keys(JSON.parse(sent))).toEqual(["_raw"]);
    expect(entry(built, "a")?.history.map((event) => event.reason).join(" ")).toContain("cut to 1000 characters");
  });

  test("an exact copy of a record (same id, same content) is dropped; the same id with other content is an edit, sent in place of the first", async () => {
    const built = await buildWith([], [user, said("a1", "hello", "assistant"), said("a1", "hello", "assistant"), said("u2", "bye")]);
    expect(built.report.entries.map((candidate) => [candidate.id, candidate.inputIndex, candidate.decision])).toEqual([
      ["u", 0, "kept"],
      ["a1", 1, "kept"],
      ["a1", 2, "dropped"],
      ["u2", 3, "kept"],
    ]);
    expect(built.report.entries[2]).toMatchObject({ stage: "repair-orphans", reason: "an exact copy of input item 1 (same id and content), stored twice" });
    expect(built.metadata.inputCount).toBe(4);
    const edited = await buildWith([], [user, said("a1", "hello", "assistant"), said("a1", "bye", "assistant")]);
    expect(edited.request.messages.slice(0, 2)).toEqual([{ role: "user", content: "check both" }, { role: "assistant", content: "bye" }]);
  });

  test("a call id reused by a later message is answered in order, then made unique with its result", async () => {
    const reused: ItemInput = { id: "a2", type: "assistant", text: "again", toolCalls: [{ id: "c1", name: "read", arguments: "{}" }] };
    const built = await buildWith([], [user, twoCalls, result("r1", "c1"), result("r2", "c2"), reused, result("r3", "c1"), said("u2", "ok")]);
    const [, , , , second, answer] = built.request.messages;
    expect(second).toMatchObject({ role: "assistant", tool_calls: [expect.objectContaining({ id: expect.stringMatching(/^c1_[a-z0-9]{7}$/) })] });
    expect(answer).toMatchObject({ role: "tool", tool_call_id: (second as { tool_calls: Array<{ id: string }> }).tool_calls[0]!.id, content: "r3" });
    expect(entry(built, "a2")?.reason).toMatch(/^call ids rewritten \("c1" → "c1_[a-z0-9]{7}"\)/);
  });

  test("call ids from another provider (too long, dots and colons) are rewritten, call and result alike", async () => {
    const longId = `fc_${"9".repeat(50)}`;
    const items: ItemInput[] = [
      user,
      { id: "a", type: "assistant", text: "", toolCalls: [{ id: longId, name: "f", arguments: "{}" }, { id: "functions.eval:301", name: "g", arguments: "{}" }] },
      result("r1", longId),
      result("r2", "functions.eval:301"),
    ];
    const built = await buildWith([], items);
    const ids = (built.request.messages[1] as { tool_calls: Array<{ id: string }> }).tool_calls.map((call) => call.id);
    expect(ids[0]).toHaveLength(40);
    expect(ids[1]).toBe("functions_eval_301");
    expect(built.request.messages.slice(2).map((message) => (message as { tool_call_id: string }).tool_call_id)).toEqual(ids);
    expect(entry(built, "r2")).toMatchObject({ decision: "repaired", reason: 'answers call "functions.eval:301", whose id was rewritten "functions_eval_301"' });
  });

  test("a call whose result an earlier stage left out is told so, not that it was interrupted", async () => {
    const built = await buildWith([], [user, twoCalls, result("r1", "c1"), { ...result("r2", "c2", "secret"), metadata: { includeInContext: false } } as ItemInput]);
    expect(built.request.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "c2", content: "Error: The result of this tool call was left out of the context." });
    expect(built.report.synthesized).toEqual([expect.objectContaining({ id: "ctxpipe:omitted:a:c2", reason: 'answers call "c2" (read) of "a": its result "r2" was left out by an earlier stage' })]);
  });

  test("a call whose result lies in a summarized range, and a result whose call does, name the summary", async () => {
    const summarizeResults = {
      name: "SummarizeSome",
      apply(pipeline: import("../pipeline/pipeline-hooks.js").PluginHost) {
        pipeline.hooks.compress.tap({ name: "SummarizeSome" }, (items, context) => {
          const gone = new Set(["r2", "old-call"]);
          for (const id of gone) context.report.summarize(id, "sum", "summarized");
          const summary = { id: "sum", type: "summary" as const, role: "system" as const, text: "Earlier work.", coveredIds: [...gone], metadata: {} };
          return [summary, ...items.filter((item) => !gone.has(item.id))];
        });
      },
    };
    const oldCall: ItemInput = { id: "old-call", type: "assistant", text: "", toolCalls: [{ id: "c0", name: "read", arguments: "{}" }] };
    const built = await buildWith([summarizeResults], [said("u0", "start"), oldCall, user, result("late", "c0"), twoCalls, result("r1", "c1"), result("r2", "c2")]);
    expect(entry(built, "late")).toMatchObject({ decision: "dropped", reason: 'its call "c0" (in "old-call") is covered by summary "sum"' });
    expect(built.report.synthesized.find((candidate) => candidate.id === "ctxpipe:omitted:a:c2")).toMatchObject({ reason: 'answers call "c2" (read) of "a": its result "r2" is covered by summary "sum"' });
  });

  test("parallel calls stored one message each (seed 001 chunks) are merged so the results follow all calls", async () => {
    const items = importMemoryChunks([
      { id: "u", type: "AGENT", content: { role: "user", text: "compare a and b" } },
      { id: "call_a", type: "WORKFLOW", content: { action: "tool_call", tool: "read", callId: "ca", text: '{"f":"a"}' } },
      { id: "call_b", type: "WORKFLOW", content: { action: "tool_call", tool: "read", callId: "cb", text: '{"f":"b"}' } },
      { id: "res_a", type: "ENVIRONMENT", content: { tool: "read", callId: "ca", success: true, text: "A" } },
      { id: "res_b", type: "ENVIRONMENT", content: { tool: "read", callId: "cb", success: true, text: "B" } },
    ]);
    const built = await buildWith([], items);
    expect(built.request.messages).toEqual([
      { role: "user", content: "compare a and b" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "ca", type: "function", function: { name: "read", arguments: '{"f":"a"}' } },
          { id: "cb", type: "function", function: { name: "read", arguments: '{"f":"b"}' } },
        ],
      },
      { role: "tool", tool_call_id: "ca", content: "A" },
      { role: "tool", tool_call_id: "cb", content: "B" },
    ]);
    expect(built.report.entries.map((candidate) => [candidate.id, candidate.decision, candidate.messageIndex])).toEqual([
      ["u", "kept", 0],
      ["call_a", "repaired", 1],
      ["call_b", "merged", 1],
      ["res_a", "kept", 2],
      ["res_b", "kept", 3],
    ]);
  });
});

describe("RepairOrphansPlugin: text and names", () => {
  test("lone surrogates from a cut emoji become U+FFFD", async () => {
    const built = await buildWith([], [said("u", "cut here: \uD83D")]);
    expect(built.request.messages[0]).toEqual({ role: "user", content: "cut here: \uFFFD" });
    expect(entry(built, "u")).toMatchObject({ decision: "repaired", reason: "replaced lone surrogates (half of a cut emoji or symbol) with U+FFFD" });
  });

  test("text of invisible characters only is blank: such messages are dropped, a call-only message keeps its calls", async () => {
    const built = await buildWith([], [said("zw", "\u200B\uFEFF \u2060"), user, { ...twoCalls, text: "\u00AD" } as ItemInput, result("r1", "c1"), result("r2", "c2")]);
    expect(entry(built, "zw")).toMatchObject({ decision: "dropped", reason: "user message with no visible text and no attachments" });
    expect(built.request.messages[1]).toMatchObject({ role: "assistant", content: null });
  });

  test("an empty tool result gets a placeholder", async () => {
    const built = await buildWith([], [user, twoCalls, result("r1", "c1", ""), result("r2", "c2", "  ")]);
    expect(built.request.messages.slice(2).map((message) => message.content)).toEqual(["(no output)", "(no output)"]);
  });

  test("tool names outside the portable alphabet (MCP names) and arguments that are not an object are repaired", async () => {
    const built = await buildWith([], [user, { id: "a", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "github.search", arguments: "" }, { id: "c2", name: "2fa:check", arguments: '{"cut' }] }, result("r1", "c1"), result("r2", "c2")]);
    expect((built.request.messages[1] as { tool_calls: unknown[] }).tool_calls).toEqual([
      { id: "c1", type: "function", function: { name: "github_search", arguments: "{}" } },
      { id: "c2", type: "function", function: { name: "_2fa_check", arguments: '{"_raw":"{\\"cut"}' } },
    ]);
  });

  test("strings longer than a provider accepts are cut on a code-point boundary", async () => {
    const built = await buildWith([new RepairOrphansPlugin({ maxStringLength: 1000 })], [said("u", `${"x".repeat(993)}😀${"y".repeat(2000)}`)]);
    const content = built.request.messages[0]!.content as string;
    expect(content.length).toBeLessThanOrEqual(1000);
    expect(content.isWellFormed()).toBe(true);
    expect(content).toContain("characters cut");
  });
});

describe("RepairOrphansPlugin: where the conversation starts and ends", () => {
  test("a history that starts with the assistant gets a user turn in front", async () => {
    const built = await buildWith([], [said("a", "Hi! How can I help?", "assistant"), said("u", "Fix the build.")], { system: "Be brief." });
    expect(built.request.messages.slice(0, 3)).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "(The conversation so far is below.)" },
      { role: "assistant", content: "Hi! How can I help?" },
    ]);
    expect(built.report.synthesized.map((candidate) => candidate.id)).toContain("ctxpipe:conversation-start");
  });

  test("a history that starts with a tool result loses the orphan and starts with the user", async () => {
    const built = await buildWith([], [result("r", "gone"), said("u", "hello")]);
    expect(built.request.messages).toEqual([{ role: "user", content: "hello" }]);
  });

  test("a conversation whose newest message is from the assistant (or a persisted error) gets a user turn asking to continue", async () => {
    // The failed-calls default leaves a persisted error out; without it the error is the last message.
    const built = await createPipeline({ defaults: { failedCalls: false } }).build([user, { id: "err", type: "error", text: "LLM_TIMEOUT" }], { tokenizer: wordTokenizer });
    expect(built.request.messages.at(-1)).toEqual({ role: "user", content: "Continue." });
    expect(built.report.synthesized).toEqual([expect.objectContaining({ id: "ctxpipe:continue", reason: 'the conversation ended with error "err"; providers want the last turn from the user' })]);
  });

  test("trailingAssistant: \"keep\" leaves the assistant last, for models that accept prefill", async () => {
    const built = await buildWith([new RepairOrphansPlugin({ trailingAssistant: "keep" })], [user, said("a", "The answer is", "assistant")], { validation: { ignore: ["strict"] } });
    expect(built.request.messages.at(-1)).toEqual({ role: "assistant", content: "The answer is" });
  });

  test("bad options are refused, naming the field", () => {
    expect(() => new RepairOrphansPlugin({ orphanResults: "keep" as never })).toThrow(expect.objectContaining({ name: "PluginOptionsError", message: expect.stringContaining("orphanResults") }));
    expect(() => new RepairOrphansPlugin({ continueText: "  " })).toThrow(expect.objectContaining({ name: "PluginOptionsError", message: expect.stringContaining("continueText") }));
  });
});

describe("RepairOrphansPlugin: calls and results stored without an id", () => {
  const noId = (id: string, ...names: string[]): ItemInput => ({ id, type: "assistant", text: "", toolCalls: names.map((name, index) => ({ id: "", name, arguments: `{"n":${index}}` })) });
  const reasons = (built: { report: { entries: ReadonlyArray<ReportEntry> } }) => built.report.entries.map((candidate) => [candidate.id, candidate.decision, candidate.reason]);

  test("pairs them by position and gives each pair an id made from the message's id", async () => {
    const built = await buildWith([], [user, noId("a", "read", "grep"), result("r1", "", "one"), result("r2", "", "two")]);
    expect(built.request.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "a_1", type: "function", function: { name: "read", arguments: '{"n":0}' } },
          { id: "a_2", type: "function", function: { name: "grep", arguments: '{"n":1}' } },
        ],
      },
      { role: "tool", tool_call_id: "a_1", content: "one" },
      { role: "tool", tool_call_id: "a_2", content: "two" },
    ]);
    expect(reasons(built)).toEqual([
      ["u", "kept", "sent in message 0"],
      ["a", "repaired", 'call 1 (read) had no id: paired by position with result "r1" and given the id "a_1"; call 2 (grep) had no id: paired by position with result "r2" and given the id "a_2"'],
      ["r1", "repaired", 'it had no call id: paired by position with call 1 (read) of "a" and given its id "a_1"'],
      ["r2", "repaired", 'it had no call id: paired by position with call 2 (grep) of "a" and given its id "a_2"'],
    ]);
    expect(built.report.synthesized).toEqual([]);
  });

  test("a call without an id and with no result left gets an id and an interrupted result", async () => {
    const built = await buildWith([], [user, noId("a", "read", "grep"), result("r1", "", "one"), said("u2", "stop")]);
    expect(built.request.messages.slice(2, 4)).toEqual([
      { role: "tool", tool_call_id: "a_1", content: "one" },
      { role: "tool", tool_call_id: "a_2", content: "Error: The tool call was interrupted before it returned a result." },
    ]);
    expect(entry(built, "a")?.reason).toBe(
      'call 1 (read) had no id: paired by position with result "r1" and given the id "a_1"; call 2 (grep) had no id: given the id "a_2" (no result without an id follows it)',
    );
    expect(built.report.synthesized).toEqual([expect.objectContaining({ id: "ctxpipe:interrupted:a:a_2", reason: 'answers call "a_2" (grep) of "a": it has no result (the run was interrupted)' })]);
  });

  test.for([
    { name: "after the next user message", items: [user, noId("a", "read"), result("r1", "", "one"), said("u2", "more"), result("late", "", "LATE")] },
    { name: "beyond the calls of its message", items: [user, noId("a", "read"), result("r1", "", "one"), result("late", "", "LATE")] },
    { name: "after a message whose calls have ids", items: [user, noId("a", "read"), result("r1", "", "one"), said("b0", "next", "assistant"), { ...twoCalls, id: "b" } as ItemInput, result("c1r", "c1"), result("late", "", "LATE"), result("c2r", "c2")] },
    { name: "with no call before it", items: [result("late", "", "LATE"), user, noId("a", "read"), result("r1", "", "one")] },
  ])("a result without an id $name is an orphan, dropped or kept as user text", async ({ items }) => {
    const reason = "it has no call id, and no call without an id before it in its turn is left to pair with by position";
    const dropped = await buildWith([], items);
    expect(entry(dropped, "late")).toMatchObject({ decision: "dropped", stage: "repair-orphans", reason });
    expect(entry(dropped, "r1")).toMatchObject({ decision: "repaired" });
    const kept = await buildWith([new RepairOrphansPlugin({ orphanResults: "text" })], items);
    expect(entry(kept, "late")).toMatchObject({ decision: "repaired", reason: `kept as user text: ${reason}` });
    expect(JSON.stringify(kept.request)).toContain(JSON.stringify("Result of an earlier tool call:\nLATE").slice(1, -1));
  });

  test("a message mixing calls with and without ids pairs the first by id and the rest by position", async () => {
    const mixed: ItemInput = { id: "a", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "read", arguments: "{}" }, { id: "", name: "grep", arguments: "{}" }] };
    const built = await buildWith([], [user, mixed, result("r2", "", "two"), result("r1", "c1", "one")]);
    expect(built.request.messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: "c1", content: "one" },
      { role: "tool", tool_call_id: "a_2", content: "two" },
    ]);
  });

  test("each turn pairs its own calls, and a result stored after text of the assistant still pairs within its turn", async () => {
    const built = await buildWith([], [user, noId("a", "read"), said("t", "reading…", "assistant"), result("r1", "", "one"), said("u2", "again"), noId("b", "read"), result("r2", "", "two")]);
    const sent = built.request.messages.map((message) => ("tool_call_id" in message ? `${message.tool_call_id}=${message.content}` : message.role));
    expect(sent).toEqual(["user", "assistant", "a_1=one", "assistant", "user", "assistant", "b_1=two"]);
    expect(entry(built, "r1")).toMatchObject({ decision: "repaired", reason: 'moved right after the assistant message "a" that made call "a_1"' });
    expect(entry(built, "r1")?.history.map((event) => event.reason)).toEqual([
      'it had no call id: paired by position with call 1 (read) of "a" and given its id "a_1"',
      'moved right after the assistant message "a" that made call "a_1"',
    ]);
  });

  test("a given id never takes an id the history already uses, and ids not portable are made so", async () => {
    const taken: ItemInput = { id: "x", type: "assistant", text: "", toolCalls: [{ id: "a_1", name: "read", arguments: "{}" }] };
    const built = await buildWith([], [user, taken, result("rx", "a_1"), said("u2", "again"), noId("a", "read"), result("r1", "", "one"), said("u3", "and"), noId("m:1", "read"), result("r2", "", "two")]);
    const ids = built.request.messages.flatMap((message) => ("tool_calls" in message && message.tool_calls !== undefined ? message.tool_calls.map((call) => call.id) : []));
    expect(ids).toEqual(["a_1", expect.stringMatching(/^a_1_[a-z0-9]{7}$/), "m_1_1"]);
    expect(new Set(ids).size).toBe(3);
  });

  test("the sanitizer names a call without an id by its position", async () => {
    const built = await buildWith([], [user, { id: "a", type: "assistant", text: "", toolCalls: [{ id: "", name: "github.search", arguments: "" }] }, result("r1", "", "one")]);
    expect(entry(built, "a")?.history.map((event) => event.reason)).toEqual([
      'tool name "github.search" of call 1 (no id) renamed "github_search": providers accept letters, digits, "_" and "-" only; empty arguments of call 1 (no id) sent as {}',
      'call 1 (github_search) had no id: paired by position with result "r1" and given the id "a_1"',
    ]);
  });
});

describe("RepairOrphansPlugin: what it adds is made once", () => {
  // An agent loop builds again while a call waits for its result, and after the model's answer: the
  // result and the user turn this stage adds are the same objects from build to build, so their counts
  // and rendered messages are reused, and the list it returns is handed on without a parsed copy.
  test("a call still waiting for its result gets the same synthesized result, and the request the same message, every build", async () => {
    const pipeline = createPipeline();
    const waiting: ItemInput[] = [user, twoCalls, result("r1", "c1")];
    const first = await pipeline.build(waiting, { tokenizer: wordTokenizer });
    const second = await pipeline.build([...waiting], { tokenizer: wordTokenizer });
    const synthesized = (built: typeof first) => (built.request.messages as Array<{ role: string; tool_call_id?: string }>).find((message) => message.role === "tool" && message.tool_call_id === "c2");
    expect(synthesized(first)).toBeDefined();
    expect(synthesized(second)).toBe(synthesized(first));
    expect(Object.isFrozen(synthesized(first))).toBe(true);
  });

  test("a conversation ending with the assistant gets the same closing user turn every build", async () => {
    const pipeline = createPipeline();
    const answered: ItemInput[] = [user, said("a0", "done", "assistant")];
    const first = await pipeline.build(answered, { tokenizer: wordTokenizer });
    const second = await pipeline.build([...answered, said("u2", "and now?"), said("a2", "also done", "assistant")], { tokenizer: wordTokenizer });
    const closing = (built: typeof first) => built.request.messages.at(-1);
    expect(closing(first)).toMatchObject({ role: "user", content: "Continue." });
    expect(closing(second)).toBe(closing(first));
  });
});
