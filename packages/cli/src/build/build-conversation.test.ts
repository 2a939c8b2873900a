import { afterEach, describe, expect, it } from "vitest";
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

const header = JSON.stringify({ log: { format: "ctxpipe.conversation", version: 1, conversationId: "c1" } });

interface Output {
  request: { messages: Array<{ role: string; content: string }> };
  report: { entries: Array<{ id: string; inputIndex: number; decision: string; reason: string }>; order: unknown; warnings: string[] };
}

describe("ctxpipe build: stored histories", () => {
  it("builds a file with a record stored twice and an edited record (exit 0), and --report names both", async () => {
    const { path } = await files({
      "c.jsonl": jsonl([
        { id: "u1", role: "user", content: "What is 2+2?" },
        { id: "a1", role: "assistant", content: "5" },
        { id: "a1", role: "assistant", content: "5" },
        { id: "u2", role: "user", content: "Sure?" },
        { id: "a1", role: "assistant", content: "4" },
      ]),
    });
    const run = await runInProcess(["build", path("c.jsonl"), "--report"]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const output = JSON.parse(run.stdout) as Output;
    expect(output.request.messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "What is 2+2?"],
      ["assistant", "4"],
      ["user", "Sure?"],
    ]);
    expect(output.report.entries.map((entry) => [entry.id, entry.inputIndex, entry.decision, entry.reason])).toEqual([
      ["u1", 0, "kept", "sent in message 0"],
      ["a1", 1, "dropped", 'an earlier version of this message (same id "a1"); the edit at input index 4 takes its place'],
      ["a1", 2, "dropped", 'an earlier version of this message (same id "a1"); the edit at input index 4 takes its place'],
      ["u2", 3, "kept", "sent in message 2"],
      ["a1", 4, "kept", "sent in message 1"],
    ]);
  });

  it("keeps a store log in the order it was written, and plain JSON lines in createdAt order, and says which in the report", async () => {
    // "b" was written first, by a process whose clock runs a minute fast.
    const messages = [
      { id: "b", role: "user", content: "written first", createdAt: "2026-01-01T10:01:30Z" },
      { id: "a", role: "user", content: "written second", createdAt: "2026-01-01T10:00:45Z" },
      { id: "c", role: "user", content: "written third", createdAt: "yesterday" },
    ];
    const { path } = await files({ "log.jsonl": `${header}\n${jsonl(messages.map((message) => ({ message })))}`, "c.jsonl": jsonl(messages) });
    const log = JSON.parse((await runInProcess(["build", path("log.jsonl"), "--report"])).stdout) as Output;
    expect(log.request.messages.map((message) => message.content)).toEqual(["written first", "written second", "written third"]);
    expect(log.report.order).toEqual({ by: "input", moved: 0 });
    const plain = JSON.parse((await runInProcess(["build", path("c.jsonl"), "--report"])).stdout) as Output;
    expect(plain.request.messages.map((message) => message.content)).toEqual(["written second", "written first", "written third"]);
    expect(plain.report.order).toEqual({ by: "createdAt", moved: 2 });
    // A date that is not a date is no reason to refuse the file: the message keeps its place.
    expect(plain.report.warnings).toContain('[ctxpipe] item 2 (id "c"): createdAt "yesterday" is not a date; it keeps its position');
  });
});
