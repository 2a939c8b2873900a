// The browser tests' Chromium lookup: the packaged build unpacked once and run, the system's as a
// fallback, and a clear failure without either.
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { findChromium } from "./find-chromium.js";
import { TestBinaryNotFoundError } from "./test-binary-not-found-error.js";

const temporary: string[] = [];
afterEach(() => {
  for (const directory of temporary.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function temporaryDirectory(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), "ctxpipe-chromium-test-"));
  temporary.push(directory);
  return directory;
}

/** An executable script standing in for a browser: `--version` prints `version` and exits with `exit`. */
function fakeBrowser(version: string, exit = 0): string {
  const executable = path.join(temporaryDirectory(), "chromium");
  writeFileSync(executable, `#!/bin/sh\necho "${version}"\nexit ${exit}\n`);
  chmodSync(executable, 0o755);
  return executable;
}

test("the build that arrives with pnpm install is unpacked once into the cache and runs here", { timeout: 120_000 }, async () => {
  const cacheDirectory = temporaryDirectory();
  const found = await findChromium({ chosenExecutable: null, cacheDirectory, systemExecutables: [] });
  expect(found.source).toBe("@sparticuz/chromium");
  expect(found.version).toMatch(/^Chromium \d+\.\d+\.\d+\.\d+$/);
  expect(path.dirname(path.dirname(found.executable))).toBe(cacheDirectory);
  const unpackedAt = statSync(found.executable).mtimeMs;
  const again = await findChromium({ chosenExecutable: null, cacheDirectory, systemExecutables: [] });
  expect(again).toEqual(found);
  expect(statSync(again.executable).mtimeMs).toBe(unpackedAt);
});

test("CTXPIPE_CHROMIUM wins, and one that does not run is an error, not a fallback", async () => {
  const chosen = fakeBrowser("Chromium 1.2.3.4");
  await expect(findChromium({ chosenExecutable: chosen })).resolves.toEqual({ executable: chosen, source: "CTXPIPE_CHROMIUM", version: "Chromium 1.2.3.4" });
  await expect(findChromium({ chosenExecutable: "/nonexistent/chrome" })).rejects.toThrow("CTXPIPE_CHROMIUM is /nonexistent/chrome, which does not run");
});

test("without the package, the first system executable that runs is used", async () => {
  const broken = fakeBrowser("Chromium 0", 1);
  const working = fakeBrowser("Chromium 156.0.0.1");
  await expect(findChromium({ chosenExecutable: null, packageDirectory: null, systemExecutables: ["/nonexistent/chromium", broken, working] })).resolves.toEqual({
    executable: working,
    source: working,
    version: "Chromium 156.0.0.1",
  });
});

test("with neither, fails saying where it looked and how to get one", async () => {
  const search = findChromium({ chosenExecutable: null, packageDirectory: null, systemExecutables: ["/nonexistent/chromium"] });
  await expect(search).rejects.toBeInstanceOf(TestBinaryNotFoundError);
  await expect(search).rejects.toThrow(
    /^Chromium not found; looked in @sparticuz\/chromium \(not installed\), \/nonexistent\/chromium\. .*pnpm install.*apt-get install chromium.*CTXPIPE_CHROMIUM/,
  );
});
