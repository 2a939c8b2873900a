// Runs the engine variant as a user would (`start:engine`): a run driven by the example's own state
// machine, over a real JSON-lines store.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { JsonlStore } from "@ctxpipe/store";
import { beforeAll, describe, expect, it } from "vitest";

const exampleDir = fileURLToPath(new URL("..", import.meta.url));
const directory = mkdtempSync(join(tmpdir(), "ctxpipe-run-engine-test-"));
let calls: string[] = [];

beforeAll(() => {
  const env = { ...process.env };
  delete env.OPENAI_BASE_URL;
  const output = execFileSync(join(exampleDir, "node_modules/.bin/tsx"), ["--conditions=@ctxpipe/source", "src/engine-main.ts", directory], { cwd: exampleDir, env, encoding: "utf8" });
  calls = output.split(/\n(?=> )/).slice(1);
}, 120_000);

describe("examples/run-mode, driven by a workflow engine of its own", () => {
  it("the engine is asked every turn: a tool that moves it shows on the next turn, with that step's tools only", () => {
    expect(calls).toHaveLength(3);
    expect(calls[0]!.split("\n")).toEqual([
      "> Fix BUG-481.",
      "  [engine] turn 0: triage; tools for this step: read_ticket",
      "  offered: read_ticket",
      "  [read_ticket] BUG-481: the cart total is NaN when a coupon has no amount (src/cart/total.ts).",
      "  [engine] turn 1: patch; tools for this step: write_patch",
      "  offered: write_patch",
      "  [write_patch] wrote patches/bug-481-coupon-amount.diff",
      "  [engine] turn 2: review; tools for this step: none; agent reviewer",
      "  offered: no tools",
      '< The patch is ready for review: patches/bug-481-coupon-amount.diff. Reply "approve" to deploy it.',
      "  → completed; the run is running",
      "",
    ]);
  });

  it("the user's approval moves the engine; the run completes visibly, and a follow-up is answered without reopening it", async () => {
    expect(calls[1]).toContain("  [engine] turn 0: deploy; tools for this step: deploy\n  offered: deploy\n  [deploy] deployed v2.4.3");
    expect(calls[1]).toContain("  [engine] turn 1: done; tools for this step: none\n  offered: no tools");
    expect(calls[1]).toContain('  (recorded task_completed: {"result":"BUG-481 is fixed: patches/bug-481-coupon-amount.diff is deployed as v2.4.3."})');
    expect(calls[1]).toContain("  → completed; the run is completed");
    expect(calls[2]).toContain("> Also bump the version?\n  [engine] turn 0: done; tools for this step: none\n  offered: no tools");
    expect(calls[2]).toContain("< The hotfix run is completed, so I leave it as it is: bumping the version is new work; start a new run for it.");
    expect(calls[2]).toContain("  → completed; the run is completed");

    const { messages } = await new JsonlStore({ directory }).load("run-hotfix-481");
    for (const message of messages) expect(message).toMatchObject({ mode: "run", runId: "hotfix-481" });
    expect(messages.map((message) => message.partType ?? message.role)).toEqual([
      "user",
      "assistant",
      "tool_result",
      "assistant",
      "tool_result",
      "assistant",
      "user",
      "assistant",
      "tool_result",
      "assistant",
      "task_completed",
      // The follow-up and its answer: no second ending.
      "user",
      "assistant",
    ]);
    // The review step was answered by the reviewer agent; the rest by the loop's.
    expect(messages[5]).toMatchObject({ agentId: "reviewer" });
    expect(messages[9]).toMatchObject({ agentId: "fixer" });
    // The engine's own state, in its own file.
    expect(JSON.parse(readFileSync(join(directory, "hotfix-engine.json"), "utf8"))).toMatchObject({
      state: "done",
      completed: ["triage", "patch", "review", "deploy"],
      variables: { ticket: "BUG-481", failingPath: "src/cart/total.ts", attempts: 1, approvedBy: "user", deployedAs: "v2.4.3" },
      artifacts: ["patches/bug-481-coupon-amount.diff"],
    });
  });
});
