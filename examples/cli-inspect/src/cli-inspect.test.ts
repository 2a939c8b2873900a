// Runs the example's commands as a user would, in a real process, and checks what they print.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, test } from "vitest";

const exampleDir = fileURLToPath(new URL("..", import.meta.url));
const bin = fileURLToPath(new URL("../../../packages/cli/src/bin.ts", import.meta.url));
const run = promisify(execFile);
const ctxpipe = (...args: string[]) => run(process.execPath, ["--import", "tsx", "--conditions=@ctxpipe/source", bin, ...args], { cwd: exampleDir, maxBuffer: 64 * 1024 * 1024 });
const AGENT_BUDGET = ["--max-tokens", "6000", "--reserve-output", "1000", "--mode", "agent"];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ctxpipe-example-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test("inspect prints the budget, the compression and every message's decision", { timeout: 60_000 }, async () => {
  const { stdout, stderr } = await ctxpipe("inspect", "conversation.jsonl", ...AGENT_BUDGET);
  expect(stderr).toBe("");
  expect(stdout).toContain("of 5,000 available (6,000 budget − 1,000 reserved for the answer) · 25 messages in");
  expect(stdout).toMatch(/Compression: triggered/);
  // The stored system prompt (the agent-mode prompt replaces it), the persisted 529 failure and the note marked
  // includeInContext: false stay out; the call the 529 cut short is answered.
  expect(stdout).toMatch(/line 1\s+m00\s+system\s+dropped\s+insert-system\/InsertSystem\s+\d+\s+\d+\s+stored system message: this build composes its own system prompt/);
  expect(stdout).toMatch(/line 22\s+m21\s+error\s+dropped\s+filter\/FailedCalls\s+\d+\s+\d+\s+a failed model call/);
  expect(stdout).toMatch(/line 24\s+m23\s+user\s+dropped\s+filter\/Filter\s+\d+\s+\d+\s+includeInContext is false/);
  expect(stdout).toMatch(/\(added\)\s+ctxpipe:interrupted:m20:call_08\s+tool-result\s+synthesized\s+repair-orphans/);
  expect(stdout).toMatch(/line 25\s+m24\s+user\s+kept/);
});

test("build prints the request, and the inspected figures are the build's", { timeout: 60_000 }, async () => {
  const built = JSON.parse((await ctxpipe("build", "conversation.jsonl", ...AGENT_BUDGET)).stdout);
  expect(built.request.messages[0].content).toMatch(/^# Mode: AGENT/);
  expect(built.request.messages.at(-1)).toEqual({ role: "user", content: expect.stringContaining("Did the tokenizer tests pass") });
  expect(built.tokenCount).toBeLessThanOrEqual(5000);
  const { stdout } = await ctxpipe("inspect", "conversation.jsonl", ...AGENT_BUDGET);
  expect(stdout).toContain(`request: ${built.tokenCount.toLocaleString("en-US")} tokens (exact)`);
  expect(built.excludedIds).toContain("m23");
});

test("a persisted summary and the summarize strategy, written as an HTML page", { timeout: 60_000 }, async () => {
  const page = join(dir, "inspect.html");
  const { stderr } = await ctxpipe("inspect", "conversation.jsonl", ...AGENT_BUDGET, "--summaries", "summaries.json", "--compression", "clear-tool-results,summarize", "--html", page);
  expect(stderr).toMatch(/^ctxpipe: wrote .*inspect\.html \(\d+ items, \d+ tokens of 5000 available\)\n$/);
  const html = await readFile(page, "utf8");
  expect(html).toContain("summary-first-turn");
  const built = JSON.parse((await ctxpipe("build", "conversation.jsonl", ...AGENT_BUDGET, "--summaries", "summaries.json", "--compression", "clear-tool-results,summarize", "--report")).stdout);
  // The persisted summary is applied first; summarize then rolls it into a longer one, which keeps its facts.
  const [made] = built.report.compression.records;
  expect(made.summary).toContain("- Earlier: The user asked why the monorepo build takes 14 minutes on CI.");
  for (const id of ["m01", "m02", "m03", "m04", "m05"]) {
    expect(made.coveredIds).toContain(id);
    expect(built.excludedIds).toContain(id);
  }
  const { stdout } = await ctxpipe("inspect", "conversation.jsonl", ...AGENT_BUDGET, "--summaries", "summaries.json", "--compression", "clear-tool-results,summarize");
  expect(stdout).toContain(`summary-first-turn: persisted record, not sent, 57 tokens for 5 messages (m01 … m05) of 1,651 tokens; applied, then rolled into ${made.id}`);
});
