// docs/tokenizers.md lists the registry as a table; this keeps the two from drifting apart.
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { KNOWN_MODELS, type KnownModel } from "./known-models.js";

const page = readFileSync(new URL("../../../../docs/tokenizers.md", import.meta.url), "utf8");
const number = (value: number) => value.toLocaleString("en-US");

function documentedRow(entry: KnownModel): string {
  const aliases = entry.aliases.length === 0 ? "" : ` (also ${entry.aliases.map((alias) => `\`${alias}\``).join(", ")})`;
  const encoding = entry.exact ? `\`${entry.encoding}\`` : `≈ \`${entry.encoding}\``;
  const maxInput = entry.maxInputTokens === entry.contextWindow ? "" : `${number(entry.maxInputTokens)} `;
  return `| \`${entry.model}\`${aliases} | ${entry.provider} | ${encoding} | ${number(entry.contextWindow)} | ${maxInput}| ${number(entry.maxOutputTokens)} | ${entry.exact ? "yes" : "no"} |`;
}

test("docs/tokenizers.md lists every known model with its figures, and nothing else", () => {
  const rows = page.split("\n").filter((line) => /^\| `[a-z0-9.-]+`/.test(line));
  expect(rows).toEqual(KNOWN_MODELS.map(documentedRow));
});
