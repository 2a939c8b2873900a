// `--offload-dir` end to end: a conversation whose newest turn holds a huge tool result is built (and
// inspected) within the budget; the whole result lands in DIR/<handle>.txt, the request is the same.
import { readdir, readFile } from "node:fs/promises";
import { contentHandle } from "@ctxpipe/core";
import { afterEach, describe, expect, test } from "vitest";
import { jsonl, runInProcess, tempFiles } from "../__fixtures__/run-in-process.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const LOG = Array.from({ length: 8000 }, (_, index) => `${String(index).padStart(5, "0")} build step ${index % 40} finished in ${(index * 29) % 700} ms`).join("\n");
const CONVERSATION = [
  { id: "u1", role: "user", content: "USER_INPUT\nWhy is the build slow?" },
  { id: "a1", role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "read_log", arguments: "{}" } }] },
  { id: "t1", role: "tool", tool_call_id: "call_1", toolName: "read_log", content: LOG },
];

async function setUp() {
  const made = await tempFiles({ "c.jsonl": jsonl(CONVERSATION) });
  cleanups.push(made.cleanup);
  return made;
}

describe("--offload-dir", () => {
  test("build writes the cut result whole to DIR/<handle>.txt, says so, and prints the same request as without it", async () => {
    const { path } = await setUp();
    const directory = path("offloaded");
    const plain = await runInProcess(["build", path("c.jsonl"), "--max-tokens", "16000"]);
    const run = await runInProcess(["build", path("c.jsonl"), "--max-tokens", "16000", "--offload-dir", directory]);
    expect({ code: run.code, stderr: run.stderr }).toStrictEqual({ code: 0, stderr: `ctxpipe: wrote 1 offloaded text to ${directory}\n` });
    expect(run.stdout).toBe(plain.stdout);
    const output = JSON.parse(run.stdout) as { tokenCount: number; includedIds: string[] };
    expect(output.tokenCount).toBeLessThanOrEqual(16_000);
    expect(output.includedIds).toStrictEqual(["u1", "a1", "t1"]);
    expect(run.stdout).toContain(`call retrieve_context with {\\"handle\\":\\"${contentHandle(LOG)}\\"`);
    expect(await readdir(directory)).toStrictEqual([`${contentHandle(LOG)}.txt`]);
    expect(await readFile(`${directory}/${contentHandle(LOG)}.txt`, "utf8")).toBe(LOG);

    const again = await runInProcess(["inspect", path("c.jsonl"), "--max-tokens", "16000", `--offload-dir=${directory}`]);
    expect({ code: again.code, stderr: again.stderr }).toStrictEqual({ code: 0, stderr: `ctxpipe: wrote 0 offloaded texts to ${directory} (1 already there)\n` });
  });

  test("a conversation with nothing cut writes nothing and says so", async () => {
    const made = await tempFiles({ "c.jsonl": jsonl(CONVERSATION.slice(0, 1)) });
    cleanups.push(made.cleanup);
    const { path } = made;
    const run = await runInProcess(["build", path("c.jsonl"), "--offload-dir", path("out")]);
    expect({ code: run.code, stderr: run.stderr }).toStrictEqual({ code: 0, stderr: `ctxpipe: wrote 0 offloaded texts to ${path("out")}\n` });
  });

  test.for(["build --help", "inspect --help"])("%s documents it", async (argv) => {
    expect((await runInProcess(argv.split(" "))).stdout).toContain("--offload-dir DIR        Write each text the build cut or cleared, whole, to DIR/<handle>.txt");
  });

  test("without its directory it is a usage error (exit 2)", async () => {
    const run = await runInProcess(["build", "c.jsonl", "--offload-dir"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("ctxpipe: --offload-dir needs the directory to write offloaded texts to.");
  });
});
