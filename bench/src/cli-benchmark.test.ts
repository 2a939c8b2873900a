import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTokenizer } from "@ctxpipe/tokenizers";
import { afterAll, describe, expect, test } from "vitest";
import { cliBenchmark, messageTexts, rotation, toJsonl } from "./cli-benchmark.js";
import { generateConversation, type StoredMessage } from "./generate-conversation.js";

const conversation: StoredMessage[] = [
  { id: "m0", role: "user", content: "Why does CI fail?", createdAt: "2026-01-01T00:00:00.000Z" },
  {
    id: "m1",
    role: "assistant",
    content: null,
    createdAt: "2026-01-01T00:00:01.000Z",
    tool_calls: [
      { id: "call_0", type: "function", function: { name: "read_file", arguments: '{"path":"ci.yml"}' } },
      { id: "call_1", type: "function", function: { name: "run_command", arguments: '{"command":"pnpm test"}' } },
    ],
  },
  { id: "m2", role: "tool", content: "on: push", createdAt: "2026-01-01T00:00:02.000Z", tool_call_id: "call_0", toolName: "read_file" },
  { id: "m3", role: "tool", content: "1 failed", createdAt: "2026-01-01T00:00:03.000Z", tool_call_id: "call_1", toolName: "run_command" },
  { id: "m4", role: "assistant", content: "A test fails.", createdAt: "2026-01-01T00:00:04.000Z" },
];

const directories: string[] = [];
afterAll(async () => {
  await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
});

async function script(source: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), "ctxpipe-bench-cli-test-"));
  directories.push(directory);
  const file = join(directory, "bin.mjs");
  await writeFile(file, source);
  return file;
}

describe("messageTexts", () => {
  test("every content, tool call argument and tool result in order, null content skipped", () => {
    expect(messageTexts(conversation)).toEqual(["Why does CI fail?", '{"path":"ci.yml"}', '{"command":"pnpm test"}', "on: push", "1 failed", "A test fails."]);
  });
});

describe("toJsonl", () => {
  test("one message per line, each reading back as the message, with a final newline", () => {
    const text = toJsonl(conversation);
    expect(text.endsWith("\n")).toBe(true);
    expect(text.trimEnd().split("\n").map((line) => JSON.parse(line) as unknown)).toEqual(conversation);
  });
});

describe("rotation", () => {
  test("each run is an order of all subjects, and each subject goes first as often as the others", () => {
    const subjects = ["tokenizer", "build", "report"];
    const firsts = [0, 1, 2, 3, 4, 5].map((run) => {
      const order = rotation(subjects, run);
      expect([...order].sort()).toEqual([...subjects].sort());
      return order[0];
    });
    expect(firsts).toEqual(["tokenizer", "build", "report", "tokenizer", "build", "report"]);
  });
});

describe("cliBenchmark", () => {
  const tokenizer = createTokenizer("gpt-4o");

  test("times every subject once per run, and says the executable is not built when it is missing", async () => {
    const figures = await cliBenchmark({ messages: 30, runs: 2, tokenizer, executable: join(tmpdir(), "no-such-ctxpipe", "bin.js") });
    expect([figures.tokenizer.runs, figures.build.runs, figures.report.runs]).toEqual([2, 2, 2]);
    expect(figures.executable).toBe("not built");
    expect(figures.megabytes).toBeGreaterThan(0);
    expect(figures.outputMegabytes).toBeGreaterThan(0);
    // Half the history: the budget is under the tokenizer's own count of the texts, not zero.
    const texts = messageTexts(generateConversation(30, 3000));
    const total = texts.reduce((sum, text) => sum + tokenizer.count(text), 0);
    expect(figures.budgetTokens).toBeGreaterThan(total / 4);
    expect(figures.budgetTokens).toBeLessThan(total);
  });

  test("runs the executable with build, the file and the budget, once per run", async () => {
    const executable = await script(
      `import { readFileSync } from "node:fs";
const [command, file, flag, budget] = process.argv.slice(2);
if (command !== "build" || flag !== "--max-tokens" || !(Number(budget) > 0) || !readFileSync(file, "utf8").includes('"role":"user"')) process.exit(3);
`,
    );
    const figures = await cliBenchmark({ messages: 10, runs: 2, tokenizer, executable });
    expect(figures.executable).toMatchObject({ runs: 2 });
  });

  test("an executable that fails fails the benchmark with its message instead of giving a figure", async () => {
    const executable = await script(`process.stderr.write("ctxpipe: broken on purpose\\n"); process.exit(2);\n`);
    await expect(cliBenchmark({ messages: 10, runs: 1, tokenizer, executable })).rejects.toThrow(/exited 2: ctxpipe: broken on purpose/);
  });
});
