import { CompressionPlugin } from "@ctxpipe/compression";
import { createPipeline, importStoredMessages } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin, GeminiRendererPlugin, OpenAIResponsesRendererPlugin } from "@ctxpipe/renderers";
import { JsonlStore } from "@ctxpipe/store";
import { TokenizerPlugin } from "@ctxpipe/tokenizers";
import { xmlRendererPlugins } from "@ctxpipe/xml-renderer";
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_CONVERSATION, FLAT_CONVERSATION } from "../__fixtures__/conversations.js";
import { jsonl, runInProcess, tempFiles } from "../__fixtures__/run-in-process.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function files(contents: Readonly<Record<string, string>>) {
  const made = await tempFiles(contents);
  cleanups.push(made.cleanup);
  return made;
}

/** Four tool turns with large results, then short messages, so that compression has work to do. */
function longConversation(lastQuestion = "So what do we do?") {
  const turns = [1, 2, 3, 4].flatMap((turn) => [
    { id: `u${turn}`, role: "user", content: `USER_INPUT\nCheck part ${turn} of the build.` },
    { id: `a${turn}`, role: "assistant", content: "Reading its log.", tool_calls: [{ id: `call_${turn}`, type: "function", function: { name: "read_file", arguments: `{"path":"part${turn}.log"}` } }] },
    { id: `t${turn}`, role: "tool", tool_call_id: `call_${turn}`, content: `part ${turn}: step took 300 s\n`.repeat(200), toolName: "read_file" },
  ]);
  const later = Array.from({ length: 12 }, (_, index) => ({ id: `x${index}`, role: index % 2 === 0 ? "user" : "assistant", content: index % 2 === 0 ? `USER_INPUT\nQuestion ${index}?` : `Answer ${index}.` }));
  return [...turns, ...later, { id: "u-last", role: "user", content: `USER_INPUT\n${lastQuestion}`, createdAt: "2026-05-01T10:01:00.000Z" }];
}

const libraryPipeline = (renderer: string) =>
  createPipeline({
    plugins: [
      new TokenizerPlugin(),
      new OpenAIResponsesRendererPlugin(),
      new AnthropicMessagesRendererPlugin(),
      new GeminiRendererPlugin(),
      ...(renderer === "xml" ? xmlRendererPlugins() : []),
      new CompressionPlugin({ strategies: ["clear-tool-results", "sliding-window"] }),
    ],
  });

describe("ctxpipe build", () => {
  it("prints the request, the count and the ids, equal to the library's build", async () => {
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION) });
    const run = await runInProcess(["build", path("c.jsonl"), "--system", "Be brief."]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const output = JSON.parse(run.stdout);
    expect(Object.keys(output)).toEqual(["request", "tokenCount", "tokenCountExact", "includedIds", "excludedIds"]);
    const expected = await libraryPipeline("openai").build(importStoredMessages(AGENT_CONVERSATION), { model: "gpt-4o", maxTokens: 128_000, reserveOutputTokens: 16_384, system: [{ id: "cli:system", text: "Be brief." }] });
    expect(output.request).toEqual(expected.request);
    expect(Object.keys(output.request)).toEqual(["model", "messages"]);
    expect(output.tokenCount).toBe(expected.tokenCount);
    expect(output.tokenCountExact).toBe(true);
    expect(output.includedIds).toEqual(["u1", "a1", "t1", "a2", "u2"]);
    expect(output.excludedIds).toEqual([]);
  });

  it.each([
    ["openai-responses", ["model", "instructions", "input", "max_output_tokens"]],
    ["anthropic", ["model", "max_tokens", "system", "messages"]],
    ["gemini", ["systemInstruction", "contents"]],
    ["xml", ["messages"]],
  ])("--provider %s prints that provider's request body", async (provider, keys) => {
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION) });
    const run = await runInProcess(["build", path("c.jsonl"), "--provider", provider, "--system", "Be brief.", "--model", "gpt-4o"]);
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout);
    expect(Object.keys(output.request)).toEqual(keys);
    const expected = await libraryPipeline(provider).build(importStoredMessages(AGENT_CONVERSATION), {
      renderer: provider as "openai",
      model: "gpt-4o",
      maxTokens: 128_000,
      reserveOutputTokens: 16_384,
      system: [{ id: "cli:system", text: "Be brief." }],
    });
    if (provider === "gemini") {
      const sdk = expected.request as unknown as { contents: unknown; config: { systemInstruction: unknown } };
      expect(output.request).toEqual({ systemInstruction: sdk.config.systemInstruction, contents: sdk.contents });
    } else {
      expect(output.request).toEqual(expected.request);
    }
    expect(output.tokenCount).toBe(expected.tokenCount);
  });

  it("--report adds one report entry per stored message", async () => {
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION) });
    const output = JSON.parse((await runInProcess(["build", path("c.jsonl"), "--report"])).stdout);
    expect(output.report.entries.map((entry: { id: string }) => entry.id)).toEqual(AGENT_CONVERSATION.map((message) => message.id));
    expect(output.report.tokenizer).toEqual({ name: "o200k_base", exact: true });
  });

  it("reads the flat tool-call form and summary messages covering an inclusive range", async () => {
    const { path } = await files({ "c.json": JSON.stringify(FLAT_CONVERSATION) });
    const run = await runInProcess(["build", path("c.json")]);
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout);
    expect(output.excludedIds).toEqual(["u1", "a1", "t1"]);
    expect(output.includedIds).toEqual(["s1", "u2"]);
    expect(JSON.stringify(output.request.messages)).toContain("auth/login.test.ts");
  });

  it("reads standard input for - and for no FILE, JSON lines or a JSON array", async () => {
    for (const [argv, text] of [
      [["build", "-"], jsonl(AGENT_CONVERSATION)],
      [["build"], JSON.stringify(AGENT_CONVERSATION)],
    ] as const) {
      const run = await runInProcess(argv, { stdin: text });
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).includedIds).toHaveLength(AGENT_CONVERSATION.length);
    }
  });

  it("refuses to wait on a terminal when no FILE is given", async () => {
    const run = await runInProcess(["build"], { stdinIsTTY: true });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/No conversation to read: give a FILE/);
  });

  it("reads a @ctxpipe/store conversation log and applies its summary records", async () => {
    const { dir } = await files({});
    const store = new JsonlStore({ directory: dir, durability: "none" });
    await store.append("chat-1", [...AGENT_CONVERSATION]);
    await store.appendSummaries("chat-1", [
      { id: "sum-1", summary: "The build log shows step 1 takes 300 s.", coveredIds: ["u1", "a1", "t1", "a2"], startId: "u1", sourceTokenCount: 60, createdAt: "2026-05-01T10:00:05.000Z" },
    ]);
    await store.close();
    const { readdir } = await import("node:fs/promises");
    const log = (await readdir(dir)).find((name) => name.endsWith(".jsonl"))!;
    const run = await runInProcess(["build", `${dir}/${log}`, "--report"]);
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout);
    expect(output.excludedIds).toEqual(["u1", "a1", "t1", "a2"]);
    expect(output.report.compression.appliedSummaries).toEqual(["sum-1"]);
  });

  it("applies --summaries records, and names the line, id and field of a bad one", async () => {
    const record = { id: "sum-1", summary: "Step 1 is slow.", coveredIds: ["u1", "a1", "t1", "a2"], startId: "u1", sourceTokenCount: 60, createdAt: "2026-05-01T10:00:05.000Z" };
    const { path } = await files({
      "c.jsonl": jsonl(AGENT_CONVERSATION),
      "good.json": JSON.stringify([record]),
      "bad.jsonl": jsonl([record, { ...record, id: "sum-2", coveredIds: [] }]),
    });
    const good = await runInProcess(["build", path("c.jsonl"), "--summaries", path("good.json")]);
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout).excludedIds).toEqual(["u1", "a1", "t1", "a2"]);
    const bad = await runInProcess(["build", path("c.jsonl"), "--summaries", path("bad.jsonl")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`ctxpipe: --summaries ${path("bad.jsonl")} line 2 (id "sum-2"), field coveredIds: a summary covers at least one message\n`);
  });

  it("exits 2 naming the line, the message id and the field of bad input, and prints nothing on standard output", async () => {
    const broken = [...AGENT_CONVERSATION.slice(0, 2), { id: "t1", role: "tool", content: "no call id" }, ...AGENT_CONVERSATION.slice(3)];
    const { path } = await files({ "c.jsonl": `\n${jsonl(broken)}` });
    const run = await runInProcess(["build", path("c.jsonl")]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`ctxpipe: ${path("c.jsonl")} line 4 (id "t1"), field tool_call_id: a tool message needs the tool_call_id of the call it answers\n`);
  });

  it("builds an edited record in every layout (the file's lines, a store log, a JSON array): the later version at the earlier one's place, both reported", async () => {
    const first = { id: "u1", role: "user", content: "hi" };
    const again = { id: "u1", role: "user", content: "hi again" };
    const other = { id: "a1", role: "assistant", content: "hello" };
    const question = { id: "u2", role: "user", content: "and now?" };
    const header = JSON.stringify({ log: { format: "ctxpipe.conversation", version: 1, conversationId: "c1" } });
    const { path } = await files({
      "c.jsonl": `${jsonl([first, other])}\n${jsonl([again, question])}`,
      "log.jsonl": `${header}\n${jsonl([{ message: first }, { message: other }, { message: again }, { message: question }])}`,
      "c.json": JSON.stringify([first, other, again, question]),
    });
    for (const file of ["c.jsonl", "log.jsonl", "c.json"]) {
      const run = await runInProcess(["build", path(file), "--report"]);
      expect({ file, code: run.code, stderr: run.stderr }).toEqual({ file, code: 0, stderr: "" });
      const built = JSON.parse(run.stdout) as { request: { messages: Array<{ role: string; content: string }> }; report: { entries: Array<{ id: string; decision: string; reason: string }> } };
      expect(built.request.messages.map((message) => message.content)).toEqual(["hi again", "hello", "and now?"]);
      expect(built.report.entries.filter((entry) => entry.id === "u1").map((entry) => [entry.decision, entry.reason])).toEqual([
        ["dropped", 'an earlier version of this message (same id "u1"); the edit at input index 2 takes its place'],
        ["kept", "sent in message 0"],
      ]);
    }
  });

  it("exits 2 naming the index in a JSON array, and the line and column of broken JSON", async () => {
    const { path } = await files({ "a.json": JSON.stringify([{ id: "u1", role: "user", content: "hi" }, { id: "x", role: "robot", content: "" }]), "b.json": '[\n  {"id": "u1",\n   "role": "user" "content": "hi"}\n]' });
    const array = await runInProcess(["build", path("a.json")]);
    expect(array.code).toBe(2);
    expect(array.stderr).toMatch(new RegExp(`^ctxpipe: ${path("a.json")} index 1 \\(id "x"\\), field role: `));
    const syntax = await runInProcess(["build", path("b.json")]);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toMatch(/not valid JSON: .*\(line 3, column 19\)/);
  });

  it("exits 2 with a message saying so when the budget cannot hold the newest user turn", async () => {
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION) });
    const run = await runInProcess(["build", path("c.jsonl"), "--max-tokens", "30", "--system", "You are a careful assistant who answers questions about builds."]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    // A quarter of a given budget is kept for the answer, and the message says so.
    expect(run.stderr).toContain("The budget cannot hold the newest user turn (30 budget − 7 reserved for the answer (a quarter of --max-tokens 30)): ");
    expect(run.stderr).toMatch(/from item "u2"/);
  });

  it("exits 1 for a file it cannot read, and 2 for an unknown model or option", async () => {
    expect(await runInProcess(["build", "/nonexistent/c.jsonl"])).toEqual({ code: 1, stdout: "", stderr: "ctxpipe: Cannot read /nonexistent/c.jsonl: no such file\n" });
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION) });
    const unknown = await runInProcess(["build", path("c.jsonl"), "--model", "gpt-4oo"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/field --model: unknown model "gpt-4oo".*--fallback-encoding/);
    const option = await runInProcess(["build", path("c.jsonl"), "--max-token", "5"]);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/Unknown option '--max-token'/);
  });

  it("counts an unknown model with --fallback-encoding and --max-tokens, flagged inexact", async () => {
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION) });
    const run = await runInProcess(["build", path("c.jsonl"), "--model", "my-local-model", "--fallback-encoding", "cl100k_base", "--max-tokens", "8000"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).tokenCountExact).toBe(false);
    const noBudget = await runInProcess(["build", path("c.jsonl"), "--model", "my-local-model", "--fallback-encoding", "cl100k_base"]);
    expect(noBudget.code).toBe(2);
    expect(noBudget.stderr).toMatch(/give --max-tokens/);
  });

  it("--compression picks the strategies by name, and none turns compression off", async () => {
    const { path } = await files({ "c.jsonl": jsonl(longConversation()) });
    // About 8,300 tokens, 2,000 of them in each tool result: clearing t1 alone brings it under 6,500.
    const budget = ["--max-tokens", "6500", "--reserve-output", "0", "--report"];
    const cleared = JSON.parse((await runInProcess(["build", path("c.jsonl"), ...budget, "--compression", "clear-tool-results"])).stdout);
    const decisions = (output: { report: { entries: Array<{ id: string; decision: string; stage: string }> } }) => Object.fromEntries(output.report.entries.map((entry) => [entry.id, `${entry.stage}:${entry.decision}`]));
    expect(decisions(cleared)).toMatchObject({ t1: "compress:cleared", t2: "render:kept", t3: "render:kept", t4: "render:kept" });
    expect(cleared.report.compression.strategies.map((strategy: { name: string }) => strategy.name)).toEqual(["clear-tool-results"]);
    const none = JSON.parse((await runInProcess(["build", path("c.jsonl"), ...budget, "--compression", "none"])).stdout);
    expect(none.report.compression).toBeUndefined();
    expect(none.excludedIds).toEqual(["u1", "a1", "t1"]);
    const chained = JSON.parse((await runInProcess(["build", path("c.jsonl"), ...budget, "--compression", "clear-tool-results,sliding-window"])).stdout);
    expect(chained.report.compression.strategies.map((strategy: { name: string }) => strategy.name)).toEqual(["clear-tool-results", "sliding-window"]);
  });

  it("--compression summarize works offline and gives the same output every run", async () => {
    const { path } = await files({ "c.jsonl": jsonl(longConversation()) });
    const argv = ["build", path("c.jsonl"), "--max-tokens", "5800", "--reserve-output", "0", "--compression", "summarize", "--report"];
    const first = await runInProcess(argv);
    const second = await runInProcess(argv);
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const output = JSON.parse(first.stdout);
    const [record] = output.report.compression.records;
    expect(record.coveredIds[0]).toBe("u1");
    expect(output.excludedIds).toEqual(record.coveredIds);
    expect(output.request.messages[0].content).toContain(record.summary);
    expect(output.report.synthesized.map((entry: { id: string }) => entry.id)).toEqual([record.id]);
    // The record's time is the newest message's, not the clock's.
    expect(record.createdAt).toBe("2026-05-01T10:01:00.000Z");
    expect(record.summary).toMatch(new RegExp(`^Extractive summary of ${record.coveredIds.length} earlier messages`));
    expect(record.summary).toContain("- The user: Check part 1 of the build.");
    // --report builds the previous model call first on the same pipeline, which made the same summary:
    // the record is still new to whoever persists it.
    expect(output.report.compression.summarizer).toEqual({ outcome: "made", coveredCount: record.coveredIds.length });
    const { path: recordsPath } = await files({ "records.json": JSON.stringify([record]) });
    const passedBack = JSON.parse((await runInProcess([...argv, "--summaries", recordsPath("records.json")])).stdout);
    expect(passedBack.report.compression).toMatchObject({ appliedSummaries: [record.id], records: [], summarizer: { outcome: "reused", coveredCount: record.coveredIds.length } });
  });

  it("--mode run with --run-context composes the run directive, and names the file and field of a bad one", async () => {
    const runContext = { packageName: "release-kit", workflowName: "Ship", currentStep: { id: "s2", name: "Write notes", instruction: "Write the release notes." }, state: { stepsCompleted: ["Tag"] } };
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION), "run.json": JSON.stringify(runContext), "bad.json": JSON.stringify({ ...runContext, currentStep: { id: "s2" } }) });
    const run = await runInProcess(["build", path("c.jsonl"), "--mode", "run", "--run-context", path("run.json")]);
    expect(run.code).toBe(0);
    const system = JSON.parse(run.stdout).request.messages[0];
    expect(system.role).toBe("system");
    expect(system.content).toMatch(/# Mode: RUN/);
    expect(system.content).toContain("Write the release notes.");
    const bad = await runInProcess(["build", path("c.jsonl"), "--mode", "run", "--run-context", path("bad.json")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(new RegExp(`--run-context ${path("bad.json")}, field currentStep\\.name: `));
  });

  it("--tools are rendered and counted, and a bad definition is named by index and field", async () => {
    const tools = [{ name: "read_file", description: "Reads a file.", parameters: { type: "object", properties: { path: { type: "string" } } } }];
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION), "tools.json": JSON.stringify(tools), "bad.json": JSON.stringify([...tools, { name: "has space" }]) });
    const without = JSON.parse((await runInProcess(["build", path("c.jsonl")])).stdout);
    const withTools = JSON.parse((await runInProcess(["build", path("c.jsonl"), "--tools", path("tools.json")])).stdout);
    expect(withTools.request.tools).toHaveLength(1);
    expect(withTools.tokenCount).toBeGreaterThan(without.tokenCount);
    const bad = await runInProcess(["build", path("c.jsonl"), "--tools", path("bad.json")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--tools .*bad\.json index 1 \(id "has space"\), field name: a tool name is/);
  });

  it("--pretty indents the JSON; without a terminal, standard error stays empty", async () => {
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION) });
    const run = await runInProcess(["build", path("c.jsonl"), "--pretty"]);
    expect(run.stdout.startsWith('{\n  "request": {')).toBe(true);
    expect(run.stderr).toBe("");
  });
});

describe("ctxpipe help", () => {
  it.for(["--help", "build --help", "inspect --help"])("%s names what each option does in plain words, not design documents", async (argv) => {
    const run = await runInProcess(argv.split(" "));
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/seed/i);
    if (argv !== "--help") expect(run.stdout).toContain("--mode chat|agent|run    Compose the system prompt for this mode:");
  });
});

describe("ctxpipe inspect", () => {
  it("prints the budget, the decisions, every row and the cache break point", async () => {
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION) });
    const run = await runInProcess(["inspect", path("c.jsonl"), "--max-tokens", "2000", "--reserve-output", "500"]);
    expect(run.code).toBe(0);
    const build = JSON.parse((await runInProcess(["build", path("c.jsonl"), "--max-tokens", "2000", "--reserve-output", "500"])).stdout);
    expect(run.stdout).toContain(`request: ${build.tokenCount} tokens (exact) of 1,500 available (2,000 budget − 500 reserved for the answer)`);
    expect(run.stdout).toMatch(/R Reserved for the answer\s+500\s+25\.0%/);
    expect(run.stdout).toContain("Decisions: 5 kept");
    for (const message of AGENT_CONVERSATION) expect(run.stdout).toMatch(new RegExp(`line \\d+\\s+${message.id}\\s`));
    // The previous model call answered with a2: it was built from u1, a1, t1.
    expect(run.stdout).toMatch(/Cache: compared with the previous model call's request: 3 of its 3 messages are unchanged; it is a prefix of this one/);
  });

  it("folds long runs of kept messages unless --all is given", async () => {
    const many = Array.from({ length: 60 }, (_, index) => ({ id: `m${index}`, role: index % 2 === 0 ? "user" : "assistant", content: `message ${index}` }));
    const { path } = await files({ "c.jsonl": jsonl(many) });
    const folded = await runInProcess(["inspect", path("c.jsonl")]);
    expect(folded.stdout).toMatch(/m0 … m59\s+60 kept/);
    const all = await runInProcess(["inspect", path("c.jsonl"), "--all"]);
    expect(all.stdout).not.toContain("kept (--all shows each)");
    for (const message of many) expect(all.stdout).toMatch(new RegExp(`\\s${message.id}\\s`));
  });

  it("says why the cache was not compared when the model has not answered yet", async () => {
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION.slice(0, 1)) });
    const run = await runInProcess(["inspect", path("c.jsonl")]);
    expect(run.stdout).toContain("Cache: not compared: the model has not answered in this conversation yet, so there is no earlier request");
  });

  it("shows where the cache breaks when compression changed the start of the request", async () => {
    // The previous model call (the conversation before x11) fits; a long last question tips this one
    // over the trigger, so the sliding window drops the oldest turn and the request's start changes.
    const conversation = longConversation("word ".repeat(400));
    const { path } = await files({ "previous.jsonl": jsonl(conversation.slice(0, -2)), "c.jsonl": jsonl(conversation) });
    const previous = JSON.parse((await runInProcess(["build", path("previous.jsonl"), "--compression", "none"])).stdout);
    const budget = String(Math.ceil((previous.tokenCount + 200) / 0.8));
    const run = await runInProcess(["inspect", path("c.jsonl"), "--max-tokens", budget, "--reserve-output", "0", "--compression", "sliding-window"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/u1\s+user\s+dropped\s+compress\/sliding-window/);
    expect(run.stdout).toContain(`Cache: compared with the previous model call's request: 0 of its ${previous.request.messages.length} messages are unchanged; the cache breaks at message 0`);
  });

  it("shortens lines to the terminal's width", async () => {
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION) });
    const run = await runInProcess(["inspect", path("c.jsonl")], { columns: 80 });
    for (const line of run.stdout.split("\n")) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it("writes the HTML page with --html and says so on standard error", async () => {
    const { path } = await files({ "c.jsonl": jsonl(AGENT_CONVERSATION) });
    const run = await runInProcess(["inspect", path("c.jsonl"), "--html", path("page.html")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(new RegExp(`^ctxpipe: wrote ${path("page.html")} \\(5 items, \\d+ tokens of 111616 available\\)\\n$`));
    const { readFile } = await import("node:fs/promises");
    expect(await readFile(path("page.html"), "utf8")).toMatch(/^<!doctype html>/i);
  });
});
