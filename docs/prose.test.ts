// Checks what the prose of the README and docs/ states about the code, where snippets.test.ts only
// type-checks code blocks: the `defaults` keys, decision kinds (and that the glossary lists them all),
// the decision recorder's methods and the decision each records, the BuildOptions named in option
// tables, the budget's attempt limit and the compression defaults. Each value is read from the code
// itself (imported, or read from the source when it is a private literal or only a type).
//
// It also RUNS the docs' test blocks: a ```ts block whose first line is `// src/<name>.test.ts` is
// written, with the named blocks of its page (`// src/<name>.ts`) beside it, to docs/.prose-run/<page>/
// (a folder that ignores itself in git) and imported while this file is collected, so its vitest tests
// run here and an example that records the wrong decision fails.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { CompressionPipeline } from "@ctxpipe/compression";
import { createPipeline, type DecisionRecorder, type PipelinePlugin } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { docsDir, markdownFiles, root } from "./markdown-files.js";
import { compressionSettingsSchema } from "../packages/compression/src/compression-settings.js";
import { DEFAULT_PLUGIN_NAMES } from "../packages/core/src/pipeline/default-plugins.js";

const runDir = join(docsDir, ".prose-run");

interface Page {
  /** Relative to the repository root, e.g. "docs/budget.md". */
  readonly name: string;
  readonly text: string;
}

function readPages(): Page[] {
  return markdownFiles().map((file) => ({ name: relative(root, file), text: readFileSync(file, "utf8") }));
}

const pages = readPages();
const source = (path: string) => readFileSync(join(root, path), "utf8");

/** A finding: where in the docs, and what it says. */
interface Claim {
  readonly where: string;
  readonly value: string;
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

function claims(pattern: RegExp, pick: (match: RegExpExecArray) => ReadonlyArray<string>): Claim[] {
  const found: Claim[] = [];
  for (const page of pages) {
    for (const match of page.text.matchAll(pattern)) {
      for (const value of pick(match)) found.push({ where: `${page.name}:${lineOf(page.text, match.index)}`, value });
    }
  }
  return found;
}

function wrong(found: ReadonlyArray<Claim>, isRight: (value: string) => boolean): string[] {
  return found.filter((claim) => !isRight(claim.value)).map((claim) => `${claim.where}: ${claim.value}`);
}

// ---- Values from the code -------------------------------------------------------------------------

/** The decision kinds: `Decision` is a type only, so it is read from its declaration. */
const DECISIONS: ReadonlyArray<string> = (() => {
  const declaration = /export type Decision =([^;]+);/.exec(source("packages/core/src/pipeline/build-report.ts"));
  if (declaration === null) throw new Error("prose.test.ts: `export type Decision = …;` not found in build-report.ts");
  return [...declaration[1]!.matchAll(/"(\w+)"/g)].map((match) => match[1]!);
})();

/** Which decision each recorder method records. */
const DECISION_OF_METHOD: Readonly<Record<string, string>> = {
  drop: "dropped",
  repair: "repaired",
  synthesize: "synthesized",
  merge: "merged",
  summarize: "summarized",
  clear: "cleared",
  truncate: "truncated",
};

/** The keys of BuildOptions: core's interface and every package's declaration merging, read from source. */
const BUILD_OPTION_KEYS: ReadonlySet<string> = (() => {
  const keys = new Set<string>();
  const packagesDir = join(root, "packages");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "dist" && !entry.name.startsWith("__")) walk(path);
      } else if (entry.name.endsWith(".ts") && !/\.test(-d)?\.ts$/.test(entry.name)) {
        const text = readFileSync(path, "utf8");
        for (const match of text.matchAll(/interface BuildOptions\b[^{]*\{/g)) {
          let depth = 1;
          let position = match.index + match[0].length;
          let lineStart = position;
          while (depth > 0 && position < text.length) {
            const character = text[position]!;
            if (character === "{") depth++;
            else if (character === "}") depth--;
            else if (character === "\n") {
              const line = text.slice(lineStart, position);
              const key = depth === 1 ? /^\s*(?:readonly\s+)?(\w+)\??\s*:/.exec(line)?.[1] : undefined;
              if (key !== undefined) keys.add(key);
              lineStart = position + 1;
            }
            position++;
          }
        }
      }
    }
  };
  walk(packagesDir);
  return keys;
})();

const MAX_BUDGET_ATTEMPTS = (() => {
  const literal = /const MAX_BUDGET_ATTEMPTS = (\d+);/.exec(source("packages/core/src/pipeline/pipeline.ts"));
  if (literal === null) throw new Error("prose.test.ts: `const MAX_BUDGET_ATTEMPTS = N;` not found in core's pipeline.ts");
  return Number(literal[1]);
})();

const COMPRESSION_DEFAULTS: Readonly<Record<string, number>> = (() => {
  const settings = compressionSettingsSchema.parse({});
  return {
    tokenBudget: new CompressionPipeline({ strategies: ["sliding-window"] }).getUsage([]).tokenBudget,
    triggerThreshold: settings.triggerThreshold,
    targetUsage: settings.targetUsage,
    minRecentMessages: settings.minRecentMessages,
  };
})();

/** The decision recorder a tap receives, caught in a real build. */
async function recorderMethods(): Promise<string[]> {
  let recorder: DecisionRecorder | undefined;
  const spy: PipelinePlugin = {
    name: "RecorderSpy",
    apply(pipeline) {
      pipeline.hooks.filter.tap({ name: "RecorderSpy" }, (_items, context) => {
        recorder = context.report;
        return undefined;
      });
    },
  };
  await createPipeline({ plugins: [spy] }).build([{ id: "u1", type: "user", text: "hello" }], { tokenizer: wordTokenizer });
  const names = new Set<string>();
  for (let object: object | null = recorder!; object !== null && object !== Object.prototype; object = Object.getPrototypeOf(object)) {
    for (const name of Object.getOwnPropertyNames(object)) {
      if (name !== "constructor" && typeof (recorder as unknown as Record<string, unknown>)[name] === "function") names.add(name);
    }
  }
  return [...names];
}

const NUMBER_WORDS: Readonly<Record<string, number>> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const numberOf = (text: string) => NUMBER_WORDS[text.toLowerCase()] ?? Number(text.replace(/[_,]/g, ""));

// ---- The checks -----------------------------------------------------------------------------------

describe("what the docs say about the code", () => {
  test("the values read from the code are there", () => {
    expect(DECISIONS.length).toBeGreaterThanOrEqual(7);
    expect(DEFAULT_PLUGIN_NAMES.length).toBeGreaterThan(3);
    expect([...BUILD_OPTION_KEYS]).toEqual(expect.arrayContaining(["renderer", "maxTokens", "reserveOutputTokens", "mode", "compression"]));
  });

  test("every `defaults: { key: … }` names a default plugin", () => {
    const found = claims(/defaults:\s*\{([^}]*)\}/g, (match) => [...match[1]!.matchAll(/(\w+)\s*:/g)].map((key) => key[1]!));
    expect(found.length).toBeGreaterThanOrEqual(2);
    expect(wrong(found, (key) => (DEFAULT_PLUGIN_NAMES as ReadonlyArray<string>).includes(key)), `default plugin keys: ${DEFAULT_PLUGIN_NAMES.join(", ")}`).toEqual([]);
  });

  test("every decision named next to the word decision (or `reported`) is a real decision kind", () => {
    // `decision` is one of `kept`, …; the decision (`dropped`, `cleared`); reported `summarized`; decision: "repaired"
    const listed = claims(
      /(?:[Dd]ecisions?|reported)`?((?:\s*(?:is|are|one|of|the|kinds?|:|\())*\s*(?:`"?[a-z]+"?`(?:\s*(?:,|and|or)\s*)*)+)/g,
      (match) => [...match[1]!.matchAll(/`"?([a-z]+)"?`/g)].map((word) => word[1]!),
    );
    const inCode = claims(/decision\s*(?::|===?|!==?)\s*"(\w+)"/g, (match) => [match[1]!]);
    expect(listed.length).toBeGreaterThanOrEqual(8);
    expect(inCode.length).toBeGreaterThanOrEqual(1);
    expect(wrong([...listed, ...inCode], (word) => DECISIONS.includes(word)), `decision kinds: ${DECISIONS.join(", ")}`).toEqual([]);
  });

  test("a list introduced as what `decision` is one of names every kind", () => {
    const lists = claims(/`decision` is one of ((?:`\w+`[\s,]*(?:and|or)?\s*)+)/g, (match) => [[...match[1]!.matchAll(/`(\w+)`/g)].map((word) => word[1]).sort().join(", ")]);
    expect(lists.length).toBeGreaterThanOrEqual(1);
    expect(wrong(lists, (list) => list === [...DECISIONS].sort().join(", "))).toEqual([]);
  });

  test("the glossary lists every decision kind", () => {
    const glossary = pages.find((page) => page.name === join("docs", "glossary.md"));
    expect(glossary, "docs/glossary.md").toBeDefined();
    expect(DECISIONS.filter((decision) => !glossary!.text.includes(`\`${decision}\``))).toEqual([]);
  });

  test("every `report.method(` and `context.report.a / b` names a method of the decision recorder", async () => {
    const methods = await recorderMethods();
    expect(methods).toEqual(expect.arrayContaining(Object.keys(DECISION_OF_METHOD)));
    const calls = claims(/\breport\.(\w+)\(/g, (match) => [match[1]!]);
    const listed = claims(/context\.report\.(\w+(?:\s*\/\s*\w+)*)/g, (match) => match[1]!.split("/").map((name) => name.trim()));
    expect(calls.length).toBeGreaterThanOrEqual(5);
    expect(wrong([...calls, ...listed], (name) => methods.includes(name)), `recorder methods: ${methods.join(", ")}`).toEqual([]);
  });

  test("a recorded reason that opens with a decision agrees with the method that records it", () => {
    // context.report.repair(item, `cleared …`) records "repaired" for an item the reason says was cleared.
    const found = claims(/\breport\.(drop|repair|synthesize|merge|summarize|clear)\(\s*[\w.]+\s*,\s*(?:[\w.]+\s*,\s*)?[`"']([a-z]+)/g, (match) => [
      `${match[1]}: ${match[2]}`,
    ]);
    expect(found.length).toBeGreaterThanOrEqual(5);
    expect(
      wrong(found, (pair) => {
        const [method, word] = pair.split(": ") as [string, string];
        return !DECISIONS.includes(word) || DECISION_OF_METHOD[method] === word;
      }),
    ).toEqual([]);
  });

  test("every option of the build options tables, and every `name` build option, is a BuildOptions key", () => {
    const tables: ReadonlyArray<readonly [page: string, heading: string]> = [
      ["docs/getting-started.md", "## Build options"],
      ["docs/system-prompt.md", "## Inputs"],
    ];
    const found: Claim[] = [];
    for (const [name, heading] of tables) {
      const page = pages.find((candidate) => candidate.name === name);
      const start = page?.text.indexOf(`\n${heading}\n`) ?? -1;
      expect(start, `${name}: ${heading}`).toBeGreaterThan(0);
      const section = page!.text.slice(start + 1).split(/\n#{1,2} /)[0]!;
      const rows = section.split("\n").filter((line) => /^\| `/.test(line));
      expect(rows.length, `${name}: ${heading} has an option table`).toBeGreaterThanOrEqual(4);
      for (const row of rows) {
        const firstCell = row.split(/(?<!\\)\|/)[1]!;
        for (const option of firstCell.matchAll(/`(\w+)`/g)) found.push({ where: `${name} ${heading}`, value: option[1]! });
      }
    }
    found.push(...claims(/`(\w+)`(?: \w+)? build option\b|build option `(\w+)`/g, (match) => [(match[1] ?? match[2])!]));
    expect(wrong(found, (option) => BUILD_OPTION_KEYS.has(option)), `BuildOptions keys: ${[...BUILD_OPTION_KEYS].join(", ")}`).toEqual([]);
  });

  test("the budget's attempt limit is the pipeline's", () => {
    const found = claims(/\bat most (\w+) (attempts?|times)\b/g, (match) =>
      match[2]!.startsWith("attempt") || /run again|budget/.test(match.input.slice(Math.max(0, match.index - 200), match.index)) ? [match[1]!] : [],
    );
    expect(found.length, "the budget and hooks pages state the limit").toBeGreaterThanOrEqual(2);
    expect(wrong(found, (count) => numberOf(count) === MAX_BUDGET_ATTEMPTS), `MAX_BUDGET_ATTEMPTS = ${MAX_BUDGET_ATTEMPTS}`).toEqual([]);
  });

  test("the compression defaults are the package's", () => {
    const names = Object.keys(COMPRESSION_DEFAULTS).join("|");
    // Table rows: | `a`, `b` | `1`, `2` | …, pairing names and values by position.
    const rows = claims(new RegExp(`^\\|((?:\\s*\`(?:${names})\`,?)+)\\s*\\|\\s*((?:\`[\\d_.,]+\`,?\\s*)+)\\|`, "gm"), (match) => {
      const keys = [...match[1]!.matchAll(/`(\w+)`/g)].map((key) => key[1]!);
      const values = [...match[2]!.matchAll(/`([\d_.,]+)`/g)].map((value) => value[1]!);
      return keys.map((key, index) => `${key}=${values[index]}`);
    });
    // Prose: `triggerThreshold` (default 0.8); code: tokenBudget: 128_000, // the default
    const prose = claims(new RegExp(`\`(${names})\`[^.;|\\n]{0,40}?\\bdefault:?\\s*\`?(\\d[\\d_.,]*\\d|\\d)`, "g"), (match) => [`${match[1]}=${match[2]}`]);
    const code = claims(new RegExp(`\\b(${names}): ([\\d_.]+),? // (?:the )?default`, "g"), (match) => [`${match[1]}=${match[2]}`]);
    expect(rows.length + prose.length + code.length).toBeGreaterThanOrEqual(5);
    expect(
      wrong([...rows, ...prose, ...code], (pair) => {
        const [key, value] = pair.split("=") as [string, string];
        return numberOf(value) === COMPRESSION_DEFAULTS[key];
      }),
      JSON.stringify(COMPRESSION_DEFAULTS),
    ).toEqual([]);
  });
});

// ---- Running the docs' test blocks ----------------------------------------------------------------

function writeRunnableBlocks(): Array<{ readonly page: string; readonly file: string }> {
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, ".gitignore"), "*\n");
  const runnable: Array<{ page: string; file: string }> = [];
  for (const page of pages) {
    const named = [...page.text.matchAll(/^```ts\n\/\/ (?:src\/)?([\w.-]+)\.ts\n([\s\S]*?)^```$/gm)].map((match) => ({ name: match[1]!, code: match[2]! }));
    if (!named.some((block) => block.name.endsWith(".test"))) continue;
    const dir = join(runDir, page.name.replace(/[/.]/g, "_"));
    mkdirSync(dir, { recursive: true });
    for (const block of named) {
      const file = join(dir, `${block.name}.ts`);
      writeFileSync(file, `${block.code}\nexport {};\n`);
      if (block.name.endsWith(".test")) runnable.push({ page: page.name, file });
    }
  }
  return runnable;
}

const runnable = writeRunnableBlocks();

test("the docs have test blocks to run", () => {
  expect(runnable.map((block) => block.page)).toContain(join("docs", "writing-a-plugin.md"));
});

for (const block of runnable) {
  describe(`${block.page}: ${relative(runDir, block.file)}`, async () => {
    await import(block.file);
  });
}
