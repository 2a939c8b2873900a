// The templates are embedded as a module, so the compiled package composes the same prompt as the
// source without reading any file. Compiles the package with its build config (emit only: type
// checking is the typecheck task's job, and needs no built core here) and compares.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, test } from "vitest";
import { completedRun, persona, runningRun, systemToolPolicy } from "../__fixtures__/prompt-inputs.js";
import * as source from "../index.js";

const packageDir = new URL("../../", import.meta.url);
// In the system's temporary directory, so a test run leaves nothing in the package. A node_modules
// link to the package's own lets the compiled code resolve @ctxpipe/core and zod as it would there.
const tempDir = mkdtempSync(join(tmpdir(), "ctxpipe-system-prompt-built-"));
const outDir = join(tempDir, "dist");

afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

test("the compiled package composes byte-identical prompts", async () => {
  symlinkSync(new URL("node_modules", packageDir).pathname, join(tempDir, "node_modules"), "dir");
  const tsc = new URL("../../node_modules/.bin/tsc", packageDir).pathname;
  await promisify(execFile)(tsc, ["-p", "tsconfig.build.json", "--outDir", outDir, "--declaration", "false", "--declarationMap", "false", "--sourceMap", "false", "--noCheck"], {
    cwd: packageDir.pathname,
  });
  const built = (await import(pathToFileURL(join(outDir, "index.js")).href)) as typeof source;
  for (const input of [
    { mode: "chat" },
    { mode: "agent", agent: persona, systemToolPolicy },
    { mode: "run", agent: persona, runContext: runningRun },
    { mode: "run", runContext: completedRun },
    { mode: "chat", systemToolPolicy: { allowedTools: ["fs.read"] }, toolPolicy: { allowedTools: ["git.diff"] } },
  ] as const) {
    expect(built.composeSystemPrompt(input)).toBe(source.composeSystemPrompt(input));
  }
  expect(built.DEFAULT_TEMPLATES).toEqual(source.DEFAULT_TEMPLATES);
}, 120_000);
