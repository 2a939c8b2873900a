// Runs the example as a user would and checks what it claims: the 2 MB result is cut inside the
// budget, the turn is kept, the whole log is stored, and the model reads back the error line.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { contentHandle } from "@ctxpipe/core";
import { JsonlStore } from "@ctxpipe/store";
import { beforeAll, expect, test } from "vitest";
import { ERROR_TEXT, serviceLog } from "./service-log.js";

const exampleDir = fileURLToPath(new URL("..", import.meta.url));
const directory = mkdtempSync(join(tmpdir(), "ctxpipe-giant-tool-output-test-"));
let output = "";

beforeAll(() => {
  output = execFileSync(join(exampleDir, "node_modules/.bin/tsx"), ["--conditions=@ctxpipe/source", "src/main.ts", directory], { cwd: exampleDir, encoding: "utf8" });
}, 120_000);

test("the 2 MB log is cut inside the budget, the turn is kept, and the model reads back the error", async () => {
  const log = serviceLog();
  expect(log.length).toBeGreaterThan(2_000_000);
  expect(output).toContain(`Log: ${join(directory, "service.log")} (${log.length.toLocaleString("en-US")} characters)`);
  const requests = [...output.matchAll(/request (\d+): ([\d,]+) of 16,000 tokens, (\d+) messages kept, (\d+) left out; tools: (.*)/g)];
  expect(requests.map((match) => ({ request: match[1], leftOut: match[4], tools: match[5] }))).toStrictEqual([
    { request: "1", leftOut: "0", tools: "read_log" },
    { request: "2", leftOut: "0", tools: "read_log, retrieve_context" },
    { request: "3", leftOut: "0", tools: "read_log, retrieve_context" },
  ]);
  for (const match of requests) expect(Number(match[2]!.replaceAll(",", ""))).toBeLessThanOrEqual(16_000);
  expect(output).toMatch(new RegExp(`cut \\S+: [\\d,]+ tokens \\([\\d,]+ characters, [\\d,]+ to [\\d,]+\\) kept whole as ${contentHandle(log)}`));
  expect(output).toContain(`[retrieve_context({"handle":"${contentHandle(log)}","from":`);
  expect(output).toContain(`< The service stopped after this error:\n2026-03-02T`);
  expect(output).toContain(ERROR_TEXT);
  expect(output).toContain("completed in 3 model calls.");
  const stored = await new JsonlStore({ directory: join(directory, "conversations") }).loadOffloaded("incident-2026-03-02", contentHandle(log));
  expect(stored?.text).toBe(log);
});

test("the README shows what the example prints", () => {
  const readme = readFileSync(join(exampleDir, "README.md"), "utf8");
  const shown = /What it prints[^`]*```\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(shown).toBe(output.replace(`${directory}/`, "…/"));
});
