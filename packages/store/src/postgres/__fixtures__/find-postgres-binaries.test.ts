// The test server's binary lookup: found on this machine, and a clear failure (never a skip) without them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { findPostgresBinaries } from "./find-postgres-binaries.js";

const temporary: string[] = [];
afterEach(() => {
  for (const directory of temporary.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function fakeDebianRoot(versions: ReadonlyArray<string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "ctxpipe-pg-bin-"));
  temporary.push(root);
  for (const version of versions) {
    mkdirSync(path.join(root, version, "bin"), { recursive: true });
    for (const binary of ["initdb", "postgres"]) writeFileSync(path.join(root, version, "bin", binary), "");
  }
  return root;
}

test("picks the highest Debian version, comparing versions as numbers", () => {
  const root = fakeDebianRoot(["9.6", "15", "13"]);
  expect(findPostgresBinaries({ debianRoot: root, pgConfig: "/nonexistent/pg_config", pathVariable: "" })).toEqual({
    initdb: path.join(root, "15", "bin", "initdb"),
    postgres: path.join(root, "15", "bin", "postgres"),
    source: path.join(root, "15", "bin"),
  });
});

test("falls back to PATH", () => {
  const root = fakeDebianRoot(["16"]);
  const bin = path.join(root, "16", "bin");
  expect(findPostgresBinaries({ debianRoot: "/nonexistent", pgConfig: "/nonexistent/pg_config", pathVariable: `/nonexistent${path.delimiter}${bin}` })).toEqual({
    initdb: path.join(bin, "initdb"),
    postgres: path.join(bin, "postgres"),
    source: "PATH",
  });
});

test("without binaries, fails saying where it looked and how to install them", () => {
  expect(() => findPostgresBinaries({ debianRoot: "/nonexistent", pgConfig: "/nonexistent/pg_config", pathVariable: "/nonexistent" })).toThrow(
    /^PostgreSQL server binaries \(initdb, postgres\) not found; looked in pg_config --bindir \(no pg_config\), PATH\. .*apt-get install postgresql/,
  );
});
