// Extracts every ```ts block of the README and docs/ and type-checks them against the packages'
// source, so a renamed option or a changed signature breaks the build instead of misleading readers.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { docsDir, markdownFiles, root } from "./markdown-files.js";

const snippetsDir = join(docsDir, ".snippets");

interface Snippet {
  readonly name: string;
  readonly file: string;
}

function writeSnippets(): Snippet[] {
  rmSync(snippetsDir, { recursive: true, force: true });
  const snippets: Snippet[] = [];
  for (const markdown of markdownFiles()) {
    const page = relative(root, markdown).replace(/[/.]/g, "_");
    const text = readFileSync(markdown, "utf8");
    let position = 0;
    for (const match of text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
      const code = match[1]!;
      const line = text.slice(0, match.index).split("\n").length;
      // A first line "// src/<name>.ts" names the file, so later blocks of the page can import it.
      const named = /^\/\/ (?:src\/)?([\w-]+)\.ts\n/.exec(code)?.[1];
      const file = join(snippetsDir, page, `${named ?? `block-${position}`}.ts`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${code}\nexport {};\n`);
      snippets.push({ name: `${relative(root, markdown)}:${line}`, file });
      position++;
    }
  }
  return snippets;
}

const snippets = writeSnippets();
let errorsByFile = new Map<string, string[]>();

beforeAll(async () => {
  const tsc = join(root, "node_modules", ".bin", "tsc");
  const output = await promisify(execFile)(tsc, ["-p", join(docsDir, "tsconfig.snippets.json"), "--pretty", "false"], { cwd: docsDir }).then(
    (result) => result.stdout,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  errorsByFile = new Map();
  for (const line of output.split("\n")) {
    const match = /^(.*?\.ts)\(\d+,\d+\): error/.exec(line);
    if (match === null) continue;
    const file = join(docsDir, match[1]!);
    errorsByFile.set(file, [...(errorsByFile.get(file) ?? []), line]);
  }
}, 120_000);

describe("documentation code blocks type-check", () => {
  test("there are blocks to check", () => {
    expect(snippets.length).toBeGreaterThan(5);
  });

  test.for(snippets.map((snippet) => [snippet.name, snippet.file] as const))("%s", ([, file]) => {
    expect(errorsByFile.get(file) ?? [], basename(file)).toEqual([]);
  });
});
