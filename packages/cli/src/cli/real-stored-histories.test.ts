// Histories as real stores hold them, through the command a user runs: each class builds (exit 0) and
// `--report` names what was done about it: copies and edits, calls without ids, dates that are not
// dates, stored system messages (a developer role, a mid-conversation instruction), persisted failures,
// a summary over the newest message, the message builder's records, and a store log's own order.
import { afterEach, describe, expect, it } from "vitest";
import { jsonl, runInProcess, tempFiles } from "../__fixtures__/run-in-process.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Entry {
  readonly id: string;
  readonly decision: string;
  readonly plugin: string;
  readonly reason: string;
}

interface Built {
  readonly request: Record<string, unknown>;
  readonly report: { readonly entries: ReadonlyArray<Entry>; readonly synthesized: ReadonlyArray<Entry>; readonly warnings: ReadonlyArray<string>; readonly order: { by: string; moved: number } };
}

/** Writes the file, runs `ctxpipe build FILE --report …`, and returns the parsed output; fails unless it exits 0. */
async function build(name: string, text: string, ...options: string[]): Promise<Built> {
  const made = await tempFiles({ [name]: text });
  cleanups.push(made.cleanup);
  const run = await runInProcess(["build", made.path(name), "--report", ...options]);
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(run.stdout) as Built;
}

const reasonsOf = (built: Built, id: string) => built.report.entries.filter((entry) => entry.id === id).map((entry) => `${entry.decision}: ${entry.reason}`);
const sent = (built: Built) => JSON.stringify(built.request);

describe("ctxpipe build on histories as real stores hold them", () => {
  it("a record stored twice and a record edited later build; the copy and the earlier version are reported", async () => {
    const built = await build(
      "c.jsonl",
      jsonl([
        { id: "u1", role: "user", content: "Deploy the API." },
        { id: "u1", role: "user", content: "Deploy the API." },
        { id: "a1", role: "assistant", content: "Deploying to staging." },
        { id: "u2", role: "user", content: "Not staging: production." },
        { id: "a1", role: "assistant", content: "Deploying to production." },
      ]),
    );
    expect(reasonsOf(built, "u1")).toEqual(["kept: sent in message 0", "dropped: an exact copy of input item 0 (same id and content), stored twice"]);
    expect(reasonsOf(built, "a1")[0]).toBe('dropped: an earlier version of this message (same id "a1"); the edit at input index 4 takes its place');
    expect(sent(built)).toContain("Deploying to production.");
    expect(sent(built)).not.toContain("Deploying to staging.");
  });

  it("calls and results stored without ids are paired by position and given ids", async () => {
    const built = await build(
      "c.jsonl",
      jsonl([
        { id: "u1", role: "user", content: "Read both files." },
        { id: "a1", role: "assistant", content: "", tool_calls: [{ id: "", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }, { id: "", type: "function", function: { name: "read", arguments: '{"path":"b"}' } }] },
        { id: "r1", role: "tool", tool_call_id: "", content: "contents of a" },
        { id: "r2", role: "tool", tool_call_id: "", content: "contents of b" },
      ]),
    );
    expect(reasonsOf(built, "a1")).toEqual(['repaired: call 1 (read) had no id: paired by position with result "r1" and given the id "a1_1"; call 2 (read) had no id: paired by position with result "r2" and given the id "a1_2"']);
    expect(reasonsOf(built, "r2")).toEqual(['repaired: it had no call id: paired by position with call 2 (read) of "a1" and given its id "a1_2"']);
    const messages = built.request.messages as Array<{ tool_call_id?: string }>;
    expect(messages.filter((message) => message.tool_call_id !== undefined).map((message) => message.tool_call_id)).toEqual(["a1_1", "a1_2"]);
  });

  it("a createdAt that is not a date keeps its place, with a warning naming the message", async () => {
    const built = await build(
      "c.jsonl",
      jsonl([
        { id: "u1", role: "user", content: "First.", createdAt: "2026-05-01T10:00:00Z" },
        { id: "a1", role: "assistant", content: "Second.", createdAt: "yesterday" },
        { id: "u2", role: "user", content: "Third.", createdAt: "2026-05-01T10:02:00Z" },
      ]),
    );
    expect(built.report.warnings).toContain('[ctxpipe] item 1 (id "a1"): createdAt "yesterday" is not a date; it keeps its position');
    expect((built.request.messages as Array<{ content: string }>).map((message) => message.content)).toEqual(["First.", "Second.", "Third."]);
  });

  it("stored system messages are the prompt when none is composed: a developer role first, a mid-conversation instruction kept (OpenAI) or moved (Anthropic)", async () => {
    const history = jsonl([
      { id: "d1", role: "developer", content: "You are a travel agent." },
      { id: "u1", role: "user", content: "Hello." },
      { id: "a1", role: "assistant", content: "Hello! Where to?" },
      { id: "s2", role: "system", content: "From now on answer in French." },
      { id: "u2", role: "user", content: "Paris, please." },
    ]);
    const openai = await build("c.jsonl", history);
    const messages = openai.request.messages as Array<{ role: string; content: string }>;
    expect(messages[0]).toEqual({ role: "system", content: "You are a travel agent." });
    expect(messages.find((message) => message.content === "From now on answer in French.")?.role).toMatch(/^(system|developer)$/);

    const anthropic = await build("c.jsonl", history, "--provider", "anthropic");
    expect(JSON.stringify(anthropic.request.system)).toContain("You are a travel agent.");
    expect(JSON.stringify(anthropic.request.system)).toContain("From now on answer in French.");
    expect(reasonsOf(anthropic, "s2")).toEqual([
      "repaired: a system message inside the conversation, moved into the system prompt: the Anthropic Messages API takes system text only in its top-level system parameter",
    ]);

    // With a composed prompt, the stored ones are replaced, and the report says so.
    const composed = await build("c.jsonl", history, "--system", "You are terse.");
    expect(sent(composed)).not.toContain("travel agent");
    expect(reasonsOf(composed, "d1")).toEqual(["dropped: stored system message: this build composes its own system prompt, which replaces the stored ones"]);
  });

  it("persisted model failures are left out, each reported, and the user's turns still reach the model", async () => {
    const failure = "LLM_ERROR\n- Code: LLM_HTTP_ERROR\n- Status: 529\n- Message: overloaded";
    const built = await build(
      "c.jsonl",
      jsonl([
        { id: "u1", role: "user", content: "Summarise the report." },
        { id: "e1", role: "assistant", content: failure, partType: "error" },
        { id: "u2", role: "user", content: "continue" },
        { id: "e2", role: "assistant", content: failure, error: true },
        { id: "u3", role: "user", content: "continue" },
        { id: "e3", role: "assistant", content: failure },
      ]),
      "--provider",
      "anthropic",
    );
    expect(sent(built)).not.toContain("LLM_ERROR");
    expect(sent(built)).not.toContain("overloaded");
    for (const id of ["e1", "e2", "e3"]) expect(reasonsOf(built, id)).toEqual([expect.stringMatching(/^dropped: a failed model call \(LLM_HTTP_ERROR.*\): not sent, so the model does not imitate it; it stays in the log$/)]);
    expect(sent(built)).toContain("Summarise the report.");
  });

  it("a summary whose range reaches the newest user message still sends that message", async () => {
    const built = await build(
      "c.jsonl",
      jsonl([
        { id: "u1", role: "user", content: "Plan the trip." },
        { id: "a1", role: "assistant", content: "Rome, then Florence." },
        { id: "u2", role: "user", content: "And the hotels?" },
        { id: "s1", kind: "summary", content: "The user planned a trip to Rome and Florence.", summary: { fromId: "u1", toId: "u2" } },
      ]),
    );
    expect(sent(built)).toContain("And the hotels?");
    expect(built.report.warnings.some((warning) => warning.includes('summary "s1": range cut short before the current turn'))).toBe(true);
  });

  it("the message builder's records build: messages kept as { id, body } and a summary record { summary, messageIds, startMessageId }", async () => {
    const messages = [
      { id: "m1", body: { role: "user", content: "Find flights to Rome." } },
      { id: "m2", body: JSON.stringify({ role: "assistant", content: "Three flights found." }) },
      { id: "m3", body: { role: "user", content: "Book the cheapest." } },
      { id: "m4", body: { role: "assistant", content: "Booked." } },
      { id: "m5", body: { role: "user", content: "Send me the ticket." } },
    ];
    const made = await tempFiles({ "c.jsonl": jsonl(messages), "summaries.json": JSON.stringify([{ summary: "The user booked the cheapest flight to Rome.", messageIds: ["m1", "m2", "m3", "m4"], startMessageId: "m5" }]) });
    cleanups.push(made.cleanup);
    const run = await runInProcess(["build", made.path("c.jsonl"), "--report", "--summaries", made.path("summaries.json")]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
    const built = JSON.parse(run.stdout) as Built;
    expect(sent(built)).toContain("The user booked the cheapest flight to Rome.");
    expect(sent(built)).toContain("Send me the ticket.");
    expect(sent(built)).not.toContain("Three flights found.");
  });

  it("a store log keeps the order it was written in, whatever the writers' clocks said; a JSON-lines file is put in date order", async () => {
    const records = [
      { id: "u1", role: "user", content: "One.", createdAt: "2026-05-01T10:00:05Z" },
      { id: "a1", role: "assistant", content: "Two.", createdAt: "2026-05-01T10:00:01Z" },
      { id: "u2", role: "user", content: "Three.", createdAt: "2026-05-01T10:00:09Z" },
    ];
    const header = JSON.stringify({ log: { format: "ctxpipe.conversation", version: 1, conversationId: "c1" } });
    const log = await build("log.jsonl", `${header}\n${jsonl(records.map((message) => ({ message })))}`);
    expect(log.report.order).toEqual({ by: "input", moved: 0 });
    expect((log.request.messages as Array<{ content: string }>).map((message) => message.content)).toEqual(["One.", "Two.", "Three."]);
    const lines = await build("c.jsonl", jsonl(records));
    expect(lines.report.order.by).toBe("createdAt");
    expect(lines.report.order.moved).toBeGreaterThan(0);
  });

  it("--provider xml with --mode sends the composed prompt once, and keeps the stored SYSTEM chunks", async () => {
    const built = await build(
      "c.jsonl",
      jsonl([
        { id: "s1", role: "system", content: "Project rules: never deploy on Fridays." },
        { id: "u1", role: "user", content: "Deploy now." },
      ]),
      "--provider",
      "xml",
      "--mode",
      "chat",
    );
    expect(sent(built).match(/# Mode: CHAT/g)).toHaveLength(1);
    expect(sent(built)).toContain("never deploy on Fridays");
  });
});
