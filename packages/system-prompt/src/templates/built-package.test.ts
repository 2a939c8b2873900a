// The templates are embedded as a module, so the compiled package composes the same prompt as the
// source without reading any file. Compiles the package with its build config (emit only: type
// checking is the typecheck task's job, and needs no built core here) and compares.
import { execFile } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, expect, test } from "vitest";
import { completedRun, persona, runningRun, systemToolPolicy } from "../__fixtures__/prompt-inputs.js";
import * as source from "../index.js";

const packageDir = new URL("../../", import.meta.url);
// Inside the package, so the compiled code resolves @ctxpipe/core from the package's own
// dependencies; outside node_modules, so vitest loads it like any other module.
const outDir = new URL(`.built-package-test-${process.pid}/`, packageDir);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

test("the compiled package composes byte-identical prompts", async () => {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const tsc = new URL("../../node_modules/.bin/tsc", packageDir).pathname;
  await promisify(execFile)(tsc, ["-p", "tsconfig.build.json", "--outDir", outDir.pathname, "--declaration", "false", "--declarationMap", "false", "--sourceMap", "false", "--noCheck"], {
    cwd: packageDir.pathname,
  });
  const built = (await import(new URL("index.js", outDir).href)) as typeof source;
  for (const input of [
    { mode: "chat" },
    { mode: "agent", agent: persona, systemToolPolicy },
    { mode: "run", agent: persona, runContext: runningRun },
    { mode: "run", runContext: completedRun },
  ] as const) {
    expect(built.composeSystemPrompt(input)).toBe(source.composeSystemPrompt(input));
  }
  expect(built.DEFAULT_TEMPLATES).toEqual(source.DEFAULT_TEMPLATES);
}, 120_000);
