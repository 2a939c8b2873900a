// Runs the example as a user would: three real processes over one run log, the first killed with
// SIGKILL in the middle of a tool call.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { JsonlStore } from "@ctxpipe/store";
import { beforeAll, describe, expect, it } from "vitest";
import { RUN_ID } from "./run-session.js";

const exampleDir = fileURLToPath(new URL("..", import.meta.url));
const directory = mkdtempSync(join(tmpdir(), "ctxpipe-run-mode-test-"));
let phases: string[] = [];

beforeAll(() => {
  const env = { ...process.env };
  delete env.OPENAI_BASE_URL;
  const output = execFileSync(join(exampleDir, "node_modules/.bin/tsx"), ["--conditions=@ctxpipe/source", "src/main.ts", directory], { cwd: exampleDir, env, encoding: "utf8" });
  phases = output.split(/\n(?=\[process)/).slice(1);
}, 120_000);

describe("examples/run-mode", () => {
  it("the first process is killed mid-tool-call after completing a step", () => {
    expect(phases).toHaveLength(3);
    expect(phases[0]).toContain('on step "collect"');
    expect(phases[0]).toContain('[complete_step({})] {"completed":"collect","transition":"collected","next":"analyze"}');
    expect(phases[0]).toContain("(process killed with SIGKILL in the middle of a tool call)");
  });

  it("the next process resumes from the log at the right step, answers the unanswered call as interrupted and retries a failed model call", () => {
    expect(phases[1]).toMatch(/^\[process \d+\] run outage-0312: 6 messages in the log; running, on step "analyze"; completed: collect/);
    expect(phases[1]).toContain("(the log ends with a call to query_metrics that never returned: answered as interrupted, not run again)");
    expect(phases[1]).toContain("model call failed (upstream model overloaded), retrying");
    expect(phases[1]).toContain("→ completed; the run is completed");
  });

  it("the final answer comes in the post-completion profile and is recorded as task_completed; a follow-up is answered from the conversation", async () => {
    expect(phases[1]).toContain("< The review is complete. Root cause: the v2.4.1 deploy leaked database connections");
    expect(phases[1]).toContain('(recorded task_completed: {"result":"The review is complete. Root cause: the v2.4.1 deploy leaked database connections');
    expect(phases[2]).toContain("completed; completed: collect, analyze, report");
    expect(phases[2]).toContain("< From the review: Root cause: the v2.4.1 deploy leaked database connections");
    expect(phases[2]).toContain("→ completed; the run is completed");
    const { messages } = await new JsonlStore({ directory }).load(`run-${RUN_ID}`);
    expect(messages.filter((message) => message.partType === "task_completed")).toHaveLength(1);
    // The follow-up comes after the record; no second ending is written.
    expect(messages.slice(-3)).toMatchObject([{ role: "assistant", partType: "task_completed" }, { role: "user" }, { role: "assistant", content: expect.stringMatching(/^From the review: /) }]);
    for (const message of messages) expect(message).toMatchObject({ mode: "run", runId: RUN_ID });
    const tools = messages.filter((message) => message.role === "tool");
    // Every call has its result; the one the killed process was running says it was interrupted.
    const interrupted = tools.filter((tool) => tool.interrupted === true);
    expect(interrupted).toMatchObject([{ partType: "tool_result", toolName: "query_metrics", is_error: true }]);
    for (const tool of tools.filter((result) => result.interrupted !== true)) expect(tool).toMatchObject({ partType: "tool_result", toolName: expect.any(String), duration: expect.any(Number) });
    // The 503 was retried within its call and then answered: a retry leaves nothing in the log.
    expect(messages.filter((message) => message.partType === "error")).toHaveLength(0);
  });
});
