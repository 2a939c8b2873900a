import { readdirSync, readFileSync } from "node:fs";
import { expect, test } from "vitest";
import packageJson from "../../package.json" with { type: "json" };
import { DEFAULT_TEMPLATES, TEMPLATE_NAMES } from "./default-templates.js";
import { DEFAULT_TEMPLATE_FILES } from "./default-template-files.js";

const dir = new URL("./", import.meta.url);

test("the embedded module matches the .md files (run `pnpm templates` after editing one)", () => {
  const files = readdirSync(dir).filter((file) => file.endsWith(".md"));
  const onDisk = Object.fromEntries(files.map((file) => [file.slice(0, -".md".length), readFileSync(new URL(file, dir), "utf8")]));
  expect(DEFAULT_TEMPLATE_FILES).toEqual(onDisk);
});

test("seed 000's four templates ship, with the completed-run rules and protocol of seed 003", () => {
  expect(TEMPLATE_NAMES).toEqual(["base-rules-chat", "base-rules-run", "base-rules-run-completed", "run-directive-protocol", "run-directive-protocol-completed", "tool-policy"]);
  for (const name of TEMPLATE_NAMES) {
    expect(DEFAULT_TEMPLATES[name].length).toBeGreaterThan(0);
    expect(DEFAULT_TEMPLATES[name]).toBe(DEFAULT_TEMPLATE_FILES[name].trimEnd());
  }
  expect(Object.isFrozen(DEFAULT_TEMPLATES)).toBe(true);
});

test("the package publishes the .md files next to the code", () => {
  expect(packageJson.files).toContain("src/templates/*.md");
  expect(packageJson.files.filter((pattern) => pattern.startsWith("!")).some((pattern) => pattern.endsWith(".md"))).toBe(false);
});
