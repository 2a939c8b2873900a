// Runs the example as a user would (two real processes over one log) and checks what it claims.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { JsonlStore } from "@ctxpipe/store";
import { beforeAll, describe, expect, it } from "vitest";
import { CONVERSATION_ID, MAX_TOKENS } from "./chat-session.js";

const exampleDir = fileURLToPath(new URL("..", import.meta.url));
const directory = mkdtempSync(join(tmpdir(), "ctxpipe-chat-mode-test-"));
let output = "";

beforeAll(() => {
  const env = { ...process.env };
  delete env.OPENAI_BASE_URL;
  output = execFileSync(join(exampleDir, "node_modules/.bin/tsx"), ["--conditions=@ctxpipe/source", "src/main.ts", directory], { cwd: exampleDir, env, encoding: "utf8" });
}, 120_000);

describe("examples/chat-mode", () => {
  it("a second process resumes the conversation from the log and remembers the user", () => {
    const [first, second] = output.split(/\n(?=\[second process)/);
    expect(first).toContain("[first process");
    expect(first).toContain("0 messages and 0 summary records in the log");
    expect(second).toMatch(/^\[second process \d+\] 10 messages and 0 summary records in the log/);
    expect(second).toContain("> What is my name?\n  (request 1:");
    expect(second).toContain("< Your name is Ada.");
  });

  it("runs tools, recovers from a failed model call with 'continue', and compresses within the budget", async () => {
    expect(output).toContain('[get_weather({"town":"Chamonix"}) → ');
    expect(output).toContain('model call failed (LLM_HTTP_ERROR: upstream model overloaded); the failure is in the log, say "continue"');
    expect(output).toMatch(/> continue\n {2}\(request 1: \d+ of 1400 tokens, compression saved \d+ tokens\)\n {2}\(summary record persisted: covers \d+ messages\)/);
    for (const match of output.matchAll(/\(request \d+: (\d+) of (\d+) tokens/g)) {
      expect(Number(match[1])).toBeLessThanOrEqual(MAX_TOKENS);
    }
    const { messages, summaries } = await new JsonlStore({ directory }).load(CONVERSATION_ID);
    expect(summaries).toHaveLength(1);
    expect(messages.filter((message) => message.partType === "error")).toHaveLength(1);
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: "Your name is Ada.", mode: "chat", runId: `chat-${CONVERSATION_ID}` });
  });
});
