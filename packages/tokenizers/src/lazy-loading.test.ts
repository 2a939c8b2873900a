// Encoding data is read on the first count, once per process: checked in a fresh Node process,
// since this test process may already have loaded everything.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const script = fileURLToPath(new URL("./__fixtures__/report-loaded-data.ts", import.meta.url));

test("data loads on the first count of each encoding, not on import or creation", async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--conditions=@ctxpipe/source", script], { cwd: packageDir });
  expect(JSON.parse(stdout)).toEqual({
    created: [],
    "first o200k count": ["gpt-tokenizer o200k_base"],
    "more o200k counts": ["gpt-tokenizer o200k_base"],
    "first cl100k count": ["gpt-tokenizer o200k_base", "gpt-tokenizer cl100k_base"],
  });
}, 30_000);
