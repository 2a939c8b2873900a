// docs/budget.md (and docs/tokenizers.md's example) state the default budget rule and shows its figures for a few models; this keeps the
// page and modelDefaults from drifting apart.
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { DEFAULT_OUTPUT_RESERVE_CAP, defaultOutputReserve, modelDefaults, outputReserveReason } from "./model-defaults.js";
import { resolveModel } from "./resolve-model.js";

const page = readFileSync(new URL("../../../../docs/budget.md", import.meta.url), "utf8");
const section = page.slice(page.indexOf("## The defaults: one rule for the CLI and the loops"), page.indexOf("## What is counted"));
const number = (value: number) => value.toLocaleString("en-US");

function documentedRow(model: string): string {
  const { info, maxTokens, reserveOutputTokens, inputBudget, exact } = modelDefaults(model);
  if (info === undefined) throw new Error(`${model} is not in the registry`);
  const tokenizer = exact ? `\`${info.encoding}\`` : `≈ \`${info.encoding}\``;
  const limits = [info.contextWindow, info.maxInputTokens, info.maxOutputTokens, maxTokens, reserveOutputTokens, inputBudget].map(number).join(" | ");
  return `| \`${model}\` | ${tokenizer} | ${exact ? "yes" : "no"} | ${limits} |`;
}

test("the section exists, with its figures table", () => {
  expect(section.length).toBeGreaterThan(100);
});

test("each model row of docs/budget.md's defaults table is what modelDefaults gives", () => {
  const rows = section.split("\n").filter((line) => /^\| `[a-z0-9.-]+` \|/.test(line));
  const models = rows.map((row) => /^\| `([a-z0-9.-]+)`/.exec(row)![1]!);
  expect(models).toEqual(expect.arrayContaining(["gpt-4o", "gpt-5", "claude-sonnet-4", "gemini-2.5-pro"]));
  expect(rows).toEqual(models.map(documentedRow));
});

test("the rule in the prose names the cap the code uses", () => {
  expect(section).toContain(`reserve = min(max output, ${number(DEFAULT_OUTPUT_RESERVE_CAP)}, ⌊maxTokens ÷ 4⌋)`);
  expect(section).toContain("input budget = min(maxTokens − reserve, max input)");
  expect(section).toContain(`at most ${number(DEFAULT_OUTPUT_RESERVE_CAP)} tokens`);
});

test("the worked examples of the page are what modelDefaults gives", () => {
  expect(modelDefaults("gpt-4o", { maxTokens: 32_000 })).toMatchObject({ reserveOutputTokens: 8_000, inputBudget: 24_000 });
  expect(modelDefaults("my-local-model", { fallback: "o200k_base", maxTokens: 32_768 })).toMatchObject({ exact: false, reserveOutputTokens: 8_192 });
  expect(modelDefaults("gpt-4o", { maxTokens: 2_000 }).inputBudget).toBe(1_500);
  expect(section).toContain("`--max-tokens 2000` sends at most 1,500\nprompt tokens");
});

test("docs/tokenizers.md's example states what the functions return", () => {
  const tokenizers = readFileSync(new URL("../../../../docs/tokenizers.md", import.meta.url), "utf8");
  const gpt5 = modelDefaults("gpt-5");
  expect(tokenizers).toContain(`defaultOutputReserve(resolveModel("gpt-4o")); // ${defaultOutputReserve(resolveModel("gpt-4o")).toString().replace(/(\d)(?=(\d{3})+$)/g, "$1_")}`);
  expect(tokenizers).toContain(
    `const gpt5 = modelDefaults("gpt-5"); // maxTokens 304_000 (the input limit + the reserve), reserveOutputTokens 32_000, inputBudget 272_000`,
  );
  expect([gpt5.maxTokens, gpt5.reserveOutputTokens, gpt5.inputBudget]).toEqual([304_000, 32_000, 272_000]);
  expect(tokenizers).toContain(`outputReserveReason(gpt5); // "${outputReserveReason(gpt5)}"`);
  expect(tokenizers).toContain(`modelDefaults("claude-sonnet-4", { reserveOutputTokens: 8_000 }).inputBudget; // 192_000`);
  expect(modelDefaults("claude-sonnet-4", { reserveOutputTokens: 8_000 }).inputBudget).toBe(192_000);
});
