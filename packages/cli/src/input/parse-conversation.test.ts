import { describe, expect, it } from "vitest";
import { CliInputError } from "../cli/cli-input-error.js";
import { parseConversation } from "./parse-conversation.js";

const header = JSON.stringify({ log: { format: "ctxpipe.conversation", version: 1, conversationId: "c1" } });
const problemsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CliInputError);
    return (error as CliInputError).problems;
  }
  throw new Error("expected a CliInputError");
};

describe("parseConversation", () => {
  it("keeps each record's line, skipping blank lines and CRLF endings", () => {
    const parsed = parseConversation('\r\n{"id":"a"}\r\n\n  \n{"id":"b"}', "c.jsonl", "c.jsonl", "auto");
    expect(parsed).toEqual({ layout: "jsonl", records: [{ id: "a" }, { id: "b" }], locations: ["line 2", "line 5"], summaries: [], warnings: [] });
  });

  it("reads a JSON array by index, and an object with a messages array", () => {
    expect(parseConversation('[{"id":"a"},{"id":"b"}]', "c.json", "c.json", "auto").locations).toEqual(["index 0", "index 1"]);
    expect(parseConversation('{"messages":[{"id":"a"}]}', "c.json", "c.json", "auto")).toMatchObject({ records: [{ id: "a" }], locations: ["messages index 0"] });
    // Standard input has no name: a leading "[" means JSON.
    expect(parseConversation(' [{"id":"a"}]', "-", "standard input", "auto").layout).toBe("json");
    expect(parseConversation('{"id":"a"}\n{"id":"b"}', "-", "standard input", "auto").layout).toBe("jsonl");
  });

  it("names every line that is not JSON", () => {
    expect(problemsOf(() => parseConversation('{"id":"a"}\n{"id":\n{"id":"c"}\nnope\n', "c.jsonl", "c.jsonl", "auto"))).toEqual([
      { source: "c.jsonl", location: "line 2", message: expect.stringMatching(/^not valid JSON: /) },
      { source: "c.jsonl", location: "line 4", message: expect.stringMatching(/^not valid JSON: /) },
    ]);
  });

  it("refuses a JSON document that holds no messages, and says how to read JSON lines", () => {
    expect(problemsOf(() => parseConversation('{"id":"a"}', "c.json", "c.json", "auto"))[0]?.message).toMatch(/expected a JSON array of stored messages.*--format jsonl/);
  });

  it("unwraps a @ctxpipe/store log: messages with their lines, summary records apart, a torn last line skipped", () => {
    const text = `${header}\n{"message":{"id":"a","role":"user","content":"hi"}}\n{"summary":{"id":"s"}}\n{"message":{"id":"b","role":"user","content":"ag`;
    const parsed = parseConversation(text, "c1.jsonl", "c1.jsonl", "auto");
    expect(parsed).toEqual({
      layout: "store-log",
      records: [{ id: "a", role: "user", content: "hi" }],
      locations: ["line 2"],
      summaries: [{ record: { id: "s" }, location: "line 3" }],
      warnings: ["c1.jsonl line 4: skipped a torn last line (a write cut short by a crash)"],
    });
  });

  it("refuses a store log of another version and a line that is not a log record", () => {
    const newer = JSON.stringify({ log: { format: "ctxpipe.conversation", version: 2, conversationId: "c1" } });
    expect(problemsOf(() => parseConversation(`${newer}\n`, "c.jsonl", "c.jsonl", "auto"))[0]).toEqual({ source: "c.jsonl", location: "line 1", message: "a ctxpipe conversation log of format version 2; this CLI reads version 1" });
    expect(problemsOf(() => parseConversation(`${header}\n{"id":"a"}\n`, "c.jsonl", "c.jsonl", "auto"))[0]).toMatchObject({ location: "line 2", message: expect.stringMatching(/not a ctxpipe log record/) });
    // A broken line in the middle of a log is not a torn tail: it is refused.
    expect(problemsOf(() => parseConversation(`${header}\n{"message":\n{"message":{"id":"a"}}\n`, "c.jsonl", "c.jsonl", "auto"))[0]).toMatchObject({ location: "line 2" });
  });
});
