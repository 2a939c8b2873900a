// docs/agent-turn.md shows this example's code: every ```ts block whose first line is "// src/<name>.ts"
// must be that file, character for character, and every file starting with such a line must be shown.
// Its ```text block is the OpenAI part of what `pnpm start` prints. When a test here fails, copy the file
// (or the output) into the guide.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const exampleDir = fileURLToPath(new URL("..", import.meta.url));
const srcDir = join(exampleDir, "src");
const guide = readFileSync(join(exampleDir, "../../docs/agent-turn.md"), "utf8");

/** The guide's code blocks that name a file, by name, in page order. */
const shown = [...guide.matchAll(/^```ts\n(\/\/ src\/([\w-]+\.ts)\n[\s\S]*?)^```$/gm)].map((match) => ({ name: match[2]!, code: match[1]! }));
/** The example's files that belong in the guide: those whose first line names them. */
const guideFiles = readdirSync(srcDir)
  .filter((file) => file.endsWith(".ts") && readFileSync(join(srcDir, file), "utf8").startsWith(`// src/${file}\n`))
  .sort();

describe("docs/agent-turn.md", () => {
  test("shows every guide file of the example once", () => {
    expect(shown.map((block) => block.name).sort()).toEqual(guideFiles);
    expect(guideFiles).toContain("openai-turn.ts");
  });

  test.for(shown)("the block of src/$name is the file as it is", ({ name, code }) => {
    expect(code).toBe(readFileSync(join(srcDir, name), "utf8"));
  });

  test("the printed account is what `pnpm start` prints for the OpenAI conversation", () => {
    const output = execFileSync(join(exampleDir, "node_modules/.bin/tsx"), ["--conditions=@ctxpipe/source", "src/main.ts"], { cwd: exampleDir, encoding: "utf8" });
    const printed = /^```text\n([\s\S]*?)^```$/m.exec(guide)?.[1];
    const openai = output.slice(output.indexOf("== openai"), output.indexOf("== anthropic")).split("\n").slice(2).join("\n").trim();
    expect(printed?.trim()).toBe(openai);
    expect(output).toMatch(/refused 0\.\n$/);
  }, 60_000);
});
