// The example's promise: every stored chunk shows up in the transcript, in order, typed as Markdown.
import { describe, expect, test } from "vitest";
import { buildTranscript } from "./build-transcript.js";

describe("markdown-transcript example", () => {
  test("puts every chunk of the session in the transcript, in conversation order", async () => {
    const result = await buildTranscript();
    expect(result.includedIds).toEqual(["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"]);
    const headings = result.request.markdown.split("\n").filter((line) => line.startsWith("#"));
    expect(headings).toEqual([
      "# Nightly build investigation",
      "### System prompt",
      "### User",
      "### Thinking",
      "### Assistant",
      "### Tool result `read_file` (`call_ci`)",
      "### Spawned subagent `agent_cache` (researcher)",
      "### Result from subagent `agent_cache`",
      "### Task completed",
      "### User",
    ]);
  });

  test("keeps the tool output verbatim in a fenced block", async () => {
    const { request } = await buildTranscript();
    expect(request.markdown).toContain("```\njobs:\n  build:\n    steps:\n      - run: pnpm install --no-frozen-lockfile\n      - run: pnpm build --force\n```");
  });
});
