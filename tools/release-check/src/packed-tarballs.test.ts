// What a user installs is the tarball, not the directory: pack each public package with pnpm (which
// also rewrites workspace: ranges) and look inside. Packages missing a build are built first.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { binTargets, builtTargets, exportTargets, launchedFile, packagePath } from "./export-targets.js";
import { ensureBuilt } from "./ensure-built.js";
import { once } from "./once.js";
import { dependencyFields, type PackageManifest } from "./package-manifest.js";
import { repoRoot } from "./repo-root.js";
import { runOrThrow } from "./run-command.js";
import { publicPackages } from "./workspace-packages.js";

const packages = publicPackages(repoRoot);
// Covers a turbo build of every package on a fresh clone, then one pnpm pack.
const timeout = 180_000;
const packDirs: string[] = [];

const built = once(() => ensureBuilt(repoRoot, packages));

afterAll(() => {
  for (const dir of packDirs) rmSync(dir, { recursive: true, force: true });
});

interface Tarball {
  readonly path: string;
  readonly files: ReadonlySet<string>;
  readonly manifest: PackageManifest;
}

function readFromTarball(tarball: Tarball, file: string): string {
  return runOrThrow("tar", ["-xzOf", tarball.path, `package/${file}`], tmpdir()).stdout;
}

function pack(dir: string, name: string): Tarball {
  built();
  const destination = mkdtempSync(join(tmpdir(), "ctxpipe-pack-"));
  packDirs.push(destination);
  runOrThrow("pnpm", ["pack", "--pack-destination", destination], dir);
  const tarballs = readdirSync(destination).filter((file) => file.endsWith(".tgz"));
  expect(tarballs, `pnpm pack of ${name}`).toHaveLength(1);
  const tarball = join(destination, tarballs[0]!);
  const listing = runOrThrow("tar", ["-tzf", tarball], destination).stdout;
  const manifestText = runOrThrow("tar", ["-xzOf", tarball, "package/package.json"], destination).stdout;
  return {
    path: tarball,
    files: new Set(listing.split("\n").filter((line) => line !== "")),
    manifest: JSON.parse(manifestText) as PackageManifest,
  };
}

describe.each(packages.map((pkg) => [pkg.manifest.name, pkg] as const))("%s", (name, pkg) => {
  const packed = once(() => pack(pkg.dir, name));

  it("contains the built entry point, its types and every export and bin target", { timeout }, () => {
    const tarball = packed();
    expect(tarball.files).toContain("package/dist/index.js");
    expect(tarball.files).toContain("package/dist/index.d.ts");
    for (const target of builtTargets(pkg.manifest)) expect(tarball.files).toContain(`package/${packagePath(target)}`);
  });

  it("has bins that run under node from a shell, with the built command they load", { timeout }, () => {
    const tarball = packed();
    for (const bin of binTargets(pkg.manifest)) {
      const launcher = readFromTarball(tarball, packagePath(bin));
      expect(launcher, bin).toMatch(/^#!\/usr\/bin\/env node\n/);
      expect(tarball.files, `${bin} loads ${launchedFile(launcher)}`).toContain(`package/${launchedFile(launcher)}`);
    }
  });

  it("contains the source the @ctxpipe/source condition points at", { timeout }, () => {
    const tarball = packed();
    const sources = exportTargets(pkg.manifest).filter((entry) => entry.condition === "@ctxpipe/source");
    for (const { target } of sources) expect(tarball.files).toContain(`package/${packagePath(target)}`);
  });

  it("contains package.json, README.md and LICENSE", { timeout }, () => {
    const tarball = packed();
    for (const file of ["package.json", "README.md", "LICENSE"]) expect(tarball.files).toContain(`package/${file}`);
  });

  it("contains no tests, type tests, fixtures or build info", { timeout }, () => {
    const tarball = packed();
    const stray = [...tarball.files].filter((file) =>
      /\.test\.[cm]?[jt]s$|\.test-d\.ts$|\/__fixtures__\/|\.tsbuildinfo$|\/node_modules\//.test(file),
    );
    expect(stray).toEqual([]);
  });

  it("has a package.json with no workspace: ranges left and the version being released", { timeout }, () => {
    const tarball = packed();
    expect(tarball.manifest.name).toBe(name);
    expect(tarball.manifest.version).toBe(pkg.manifest.version);
    for (const field of dependencyFields) {
      for (const [dep, range] of Object.entries(tarball.manifest[field] ?? {})) {
        expect(range, `${field}.${dep}`).not.toMatch(/^workspace:/);
      }
    }
  });
});
