import { modelDefaults, UnknownModelError } from "@ctxpipe/tokenizers";
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArgs } from "../args/parse-cli-args.js";
import type { BuildCommandOptions } from "../args/cli-options.js";
import { AGENT_CONVERSATION } from "../__fixtures__/conversations.js";
import { jsonl, runInProcess, tempFiles } from "../__fixtures__/run-in-process.js";
import { CliInputError } from "../cli/cli-input-error.js";
import { cliBudgetOf, describeBudget } from "./cli-budget-of.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const optionsOf = (argv: ReadonlyArray<string>) => (parseCliArgs(["build", ...argv]) as { options: BuildCommandOptions }).options;

function refusal(argv: ReadonlyArray<string>): unknown {
  try {
    cliBudgetOf(optionsOf(argv));
  } catch (error) {
    return error;
  }
  throw new Error(`expected ${argv.join(" ")} to be refused`);
}

describe("cliBudgetOf", () => {
  it.for([
    [[], { maxTokens: 128_000, reserveOutputTokens: 16_384, inputBudget: 111_616 }, "128,000-token window of gpt-4o − 16,384 reserved for the answer (the output limit of gpt-4o)"],
    [
      ["--model", "gpt-5"],
      { maxTokens: 304_000, reserveOutputTokens: 32_000, inputBudget: 272_000 },
      "304,000 (the 400,000-token window of gpt-5, lowered to the 272,000-token input limit of gpt-5 + the reserve) − 32,000 reserved for the answer (the output limit of gpt-5, capped at 32,000)",
    ],
    [
      ["--model", "gpt-5", "--max-tokens", "400000"],
      { maxTokens: 304_000, reserveOutputTokens: 32_000, inputBudget: 272_000 },
      "304,000 (the --max-tokens 400,000, lowered to the 272,000-token input limit of gpt-5 + the reserve) − 32,000 reserved for the answer (the output limit of gpt-5, capped at 32,000)",
    ],
    [
      ["--provider", "anthropic", "--model", "claude-sonnet-4-20250514"],
      { maxTokens: 200_000, reserveOutputTokens: 32_000, inputBudget: 168_000 },
      "200,000-token window of claude-sonnet-4 − 32,000 reserved for the answer (the output limit of claude-sonnet-4, capped at 32,000)",
    ],
    [
      ["--model", "gemini-2.5-pro"],
      { maxTokens: 1_048_576, reserveOutputTokens: 32_000, inputBudget: 1_016_576 },
      "1,048,576-token window of gemini-2.5-pro − 32,000 reserved for the answer (the output limit of gemini-2.5-pro, capped at 32,000)",
    ],
    [
      ["--model", "gpt-4"],
      { maxTokens: 8_192, reserveOutputTokens: 2_048, inputBudget: 6_144 },
      "8,192-token window of gpt-4 − 2,048 reserved for the answer (a quarter of the 8,192-token context window of gpt-4, whose output limit is 8,192)",
    ],
    [["--max-tokens", "2000"], { maxTokens: 2_000, reserveOutputTokens: 500, inputBudget: 1_500 }, "2,000 budget − 500 reserved for the answer (a quarter of --max-tokens 2,000)"],
    [["--max-tokens", "6000", "--reserve-output", "1000"], { maxTokens: 6_000, reserveOutputTokens: 1_000, inputBudget: 5_000 }, "6,000 budget − 1,000 reserved for the answer"],
    [["--reserve-output", "0"], { maxTokens: 128_000, reserveOutputTokens: 0, inputBudget: 128_000 }, "128,000-token window of gpt-4o − 0 reserved for the answer"],
    [
      ["--model", "my-local-model", "--fallback-encoding", "cl100k_base", "--max-tokens", "8000"],
      { maxTokens: 8_000, reserveOutputTokens: 2_000, inputBudget: 6_000 },
      "8,000 budget − 2,000 reserved for the answer (a quarter of --max-tokens 8,000)",
    ],
  ] as const)("%j: %j", ([argv, figures, described]) => {
    const options = optionsOf(argv);
    const budget = cliBudgetOf(options);
    // The very figures the loops get for the same model and overrides.
    expect(budget).toEqual(
      modelDefaults(options.model, {
        ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
        ...(options.reserveOutput === undefined ? {} : { reserveOutputTokens: options.reserveOutput }),
        ...(options.fallbackEncoding === undefined ? {} : { fallback: options.fallbackEncoding }),
      }),
    );
    expect({ maxTokens: budget.maxTokens, reserveOutputTokens: budget.reserveOutputTokens, inputBudget: budget.inputBudget }).toEqual(figures);
    expect(describeBudget(budget, options)).toBe(described);
  });

  it.for([
    [
      ["--model", "gpt4o"],
      {
        source: "command line",
        field: "--model",
        message:
          'unknown model "gpt4o": its tokenizer and context window are not known. Close known names: gpt-4o, gpt-4, gpt-5. Give a known model, or --fallback-encoding o200k_base (or cl100k_base) with --max-tokens to count with an encoding (counts flagged inexact).',
      },
    ],
    [
      ["--model", "my-local-model", "--fallback-encoding", "o200k_base"],
      { source: "command line", field: "--max-tokens", message: 'the registry does not know the context window of "my-local-model", which is counted with the fallback encoding o200k_base: give --max-tokens' },
    ],
    [["--max-tokens", "2000", "--reserve-output", "2000"], { source: "command line", field: "--reserve-output", message: "2,000 tokens reserved for the answer leave no room for the prompt in --max-tokens 2,000: must be less" }],
    [
      ["--model", "gpt-4", "--reserve-output", "9000"],
      { source: "command line", field: "--reserve-output", message: "9,000 tokens reserved for the answer leave no room for the prompt in the 8,192-token context window of gpt-4: must be less" },
    ],
  ] as const)("%j is refused naming the flag", ([argv, problem]) => {
    const error = refusal(argv);
    expect(error).toBeInstanceOf(CliInputError);
    expect((error as CliInputError).problems).toEqual([problem]);
    expect((error as CliInputError).exitCode).toBe(2);
  });

  it("keeps the library's error as the cause", () => {
    expect((refusal(["--model", "gpt4o"]) as CliInputError).cause).toBeInstanceOf(UnknownModelError);
  });
});

describe("ctxpipe build and inspect with the default budget", () => {
  async function file() {
    const made = await tempFiles({ "c.jsonl": jsonl(AGENT_CONVERSATION) });
    cleanups.push(made.cleanup);
    return made.path("c.jsonl");
  }

  it.for([
    ["gpt-4o", "of 111,616 available (128,000-token window of gpt-4o − 16,384 reserved for the answer (the output limit of gpt-4o))"],
    ["gpt-5", "of 272,000 available (304,000 (the 400,000-token window of gpt-5, lowered to the 272,000-token input limit of gpt-5 + the reserve) − 32,000 reserved for the answer (the output limit of gpt-5, capped at 32,000))"],
  ])("inspect --model %s says where the budget came from", async ([model, line]) => {
    const run = await runInProcess(["inspect", await file(), "--model", model!]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(line);
  });

  it("the build's report carries the default figures, and the Anthropic request reserves them as max_tokens", async () => {
    const path = await file();
    const openai = JSON.parse((await runInProcess(["build", path, "--report"])).stdout);
    expect(openai.report.budget).toEqual({ maxTokens: 128_000, reserveOutputTokens: 16_384, available: 111_616, used: openai.tokenCount, attempts: 1 });
    const anthropic = JSON.parse((await runInProcess(["build", path, "--provider", "anthropic", "--model", "claude-sonnet-4-5", "--report"])).stdout);
    expect(anthropic.request.max_tokens).toBe(32_000);
    expect(anthropic.report.budget).toEqual({ maxTokens: 200_000, reserveOutputTokens: 32_000, available: 168_000, used: anthropic.tokenCount, attempts: 1 });
  });

  it("trims to the default input budget: the prompt never takes the answer's room", async () => {
    // About 120,000 tokens of history: under gpt-4o's 128,000-token window, over its 111,616 input budget.
    const big = Array.from({ length: 12 }, (_, index) => [
      { id: `u${index}`, role: "user", content: `Question ${index}: ${"lorem ipsum dolor sit amet ".repeat(2_000)}` },
      { id: `a${index}`, role: "assistant", content: `Answer ${index}.` },
    ]).flat();
    const made = await tempFiles({ "big.jsonl": jsonl([...big, { id: "last", role: "user", content: "And now?" }]) });
    cleanups.push(made.cleanup);
    const whole = JSON.parse((await runInProcess(["build", made.path("big.jsonl"), "--compression", "none", "--reserve-output", "0"])).stdout);
    expect(whole.excludedIds).toEqual([]);
    expect(whole.tokenCount).toBeGreaterThan(111_616);
    expect(whole.tokenCount).toBeLessThanOrEqual(128_000);
    const trimmed = JSON.parse((await runInProcess(["build", made.path("big.jsonl"), "--compression", "none"])).stdout);
    expect(trimmed.excludedIds.length).toBeGreaterThan(0);
    expect(trimmed.tokenCount).toBeLessThanOrEqual(111_616);
  });
});

describe("docs/cli.md", () => {
  it("states the default budget of each model in its table as the CLI resolves it", async () => {
    const { readFile } = await import("node:fs/promises");
    const page = await readFile(new URL("../../../../docs/cli.md", import.meta.url), "utf8");
    const section = page.slice(page.indexOf("### The budget"), page.indexOf("`--summarizer openai` is the only option"));
    const rows = section.split("\n").filter((line) => /^\| `[a-z][a-z0-9.-]*`/.test(line));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const row of rows) {
      const [model, budget, reserve, input] = row.split("|").slice(1, 5).map((cell) => cell.trim());
      const figures = cliBudgetOf(optionsOf(["--model", /`([^`]+)`/.exec(model!)![1]!]));
      const number = (value: number) => value.toLocaleString("en-US");
      expect([budget!.split(" ")[0], reserve, input], row).toEqual([figures.maxTokens, figures.reserveOutputTokens, figures.inputBudget].map(number));
    }
  });
});
