// Changesets turn the pending .changeset/*.md files into versions and changelogs. `changeset version`
// runs on a copy of the repository, and its result is checked against what the files ask for, so the
// test holds for whatever changesets are pending (none included).
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, expect, it } from "vitest";
import { type ChangesetFile, readChangesets } from "./changeset-files.js";
import { copyRepository } from "./copy-repository.js";
import { once } from "./once.js";
import { type PackageManifest, dependencyFields } from "./package-manifest.js";
import { repoRoot } from "./repo-root.js";
import { runCommand, runOrThrow } from "./run-command.js";
import { type BumpType, bumpVersion, compareVersions, higherBump } from "./semver.js";
import { workspacePackages } from "./workspace-packages.js";

const changesetBin = join(repoRoot, "node_modules", ".bin", "changeset");
const timeout = 60_000;

interface Snapshot {
  readonly dir: string;
  readonly manifest: PackageManifest;
  readonly hadChangelog: boolean;
}

interface VersionRun {
  readonly copy: string;
  readonly changesets: readonly ChangesetFile[];
  /** Package name → the highest bump the changesets ask for. */
  readonly requested: ReadonlyMap<string, BumpType>;
  readonly before: ReadonlyMap<string, Snapshot>;
  readonly after: ReadonlyMap<string, PackageManifest>;
}

const copies: string[] = [];

const versionRun = once((): VersionRun => {
  const copy = copyRepository(repoRoot);
  copies.push(copy);
  const changesets = readChangesets(join(copy, ".changeset"));
  const requested = new Map<string, BumpType>();
  for (const changeset of changesets) {
    for (const [name, bump] of changeset.releases) requested.set(name, higherBump(requested.get(name), bump));
  }
  const before = new Map<string, Snapshot>();
  for (const { dir, manifest } of workspacePackages(copy)) {
    before.set(manifest.name, { dir, manifest, hadChangelog: existsSync(join(dir, "CHANGELOG.md")) });
  }
  runOrThrow(changesetBin, ["version"], copy);
  const after = new Map(workspacePackages(copy).map(({ manifest }) => [manifest.name, manifest] as const));
  return { copy, changesets, requested, before, after };
});

afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

function internalDependencies(run: VersionRun, manifest: PackageManifest): string[] {
  // devDependencies are not installed with a package, so they never cause a release.
  const fields = [manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies];
  return fields.flatMap((field) => Object.keys(field ?? {})).filter((dep) => run.before.has(dep));
}

function versionChanged(run: VersionRun, name: string): boolean {
  return run.after.get(name)?.version !== run.before.get(name)?.manifest.version;
}

function majorChanged(run: VersionRun, name: string): boolean {
  const [old, now] = [run.before.get(name)?.manifest.version, run.after.get(name)?.version];
  return old?.split(".")[0] !== now?.split(".")[0];
}

it("`changeset status` passes in the repository", () => {
  const result = runCommand(changesetBin, ["status"], repoRoot);
  expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
});

it("the repository is not in prerelease mode", () => {
  expect(existsSync(join(repoRoot, ".changeset", "pre.json"))).toBe(false);
});

it("`changeset version` runs on a copy of the repository", { timeout }, () => {
  const { after, before } = versionRun();
  expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
});

it("every changeset names workspace packages", { timeout }, () => {
  const { changesets, before } = versionRun();
  for (const changeset of changesets) {
    expect(changeset.releases.size, `.changeset/${changeset.file} names no package`).toBeGreaterThan(0);
    for (const name of changeset.releases.keys()) {
      expect(before.has(name), `.changeset/${changeset.file}: ${name} is not a workspace package`).toBe(true);
    }
  }
});

it("bumps every package a changeset names by the highest bump asked for", { timeout }, () => {
  const run = versionRun();
  for (const [name, bump] of run.requested) {
    const { manifest } = run.before.get(name)!;
    const expected = bumpVersion(manifest.version, bump);
    const actual = run.after.get(name)!.version;
    // A dependency going to a new major may push a dependent further than its own changesets ask.
    if (internalDependencies(run, manifest).some((dep) => majorChanged(run, dep))) {
      expect(compareVersions(actual, expected), `${name}: ${actual} below ${expected}`).toBeGreaterThanOrEqual(0);
    } else {
      expect(actual, `${name} (${bump})`).toBe(expected);
    }
  }
});

it("leaves other packages alone unless something they depend on was released", { timeout }, () => {
  const run = versionRun();
  for (const [name, snapshot] of run.before) {
    if (run.requested.has(name) || !versionChanged(run, name)) continue;
    const changedDeps = internalDependencies(run, snapshot.manifest).filter((dep) => versionChanged(run, dep));
    expect(changedDeps, `${name} was bumped with no changeset and no released dependency`).not.toEqual([]);
  }
  if (run.changesets.length === 0) {
    for (const name of run.before.keys()) expect(versionChanged(run, name), name).toBe(false);
  }
});

it("writes each changeset's summary into the changelog of every package it names", { timeout }, () => {
  const { after, before, changesets, copy } = versionRun();
  for (const changeset of changesets) {
    const lines = changeset.summary
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "");
    for (const name of changeset.releases.keys()) {
      const changelogPath = join(before.get(name)!.dir, "CHANGELOG.md");
      expect(existsSync(changelogPath), `${relative(copy, changelogPath)} was not written`).toBe(true);
      const changelog = readFileSync(changelogPath, "utf8");
      expect(changelog).toContain(`## ${after.get(name)!.version}`);
      for (const line of lines) expect(changelog, `${name}: .changeset/${changeset.file}`).toContain(line);
    }
  }
  if (changesets.length === 0) {
    for (const [name, snapshot] of before) {
      expect(existsSync(join(snapshot.dir, "CHANGELOG.md")), `${name} CHANGELOG.md`).toBe(snapshot.hadChangelog);
    }
  }
});

it("consumes the changeset files", { timeout }, () => {
  const { copy } = versionRun();
  const left = readdirSync(join(copy, ".changeset")).filter((file) => file.endsWith(".md") && file !== "README.md");
  expect(left).toEqual([]);
});

it("leaves internal workspace: ranges as workspace: ranges", { timeout }, () => {
  const { after, before } = versionRun();
  let checked = 0;
  for (const [name, snapshot] of before) {
    for (const field of dependencyFields) {
      for (const [dep, range] of Object.entries(snapshot.manifest[field] ?? {})) {
        if (!range.startsWith("workspace:")) continue;
        checked++;
        const now = after.get(name)?.[field]?.[dep];
        // A bare workspace:*, ^ or ~ has no version in it to update; anything longer may be updated.
        if (/^workspace:[*^~]$/.test(range)) expect(now, `${name} ${field}.${dep}`).toBe(range);
        else expect(now, `${name} ${field}.${dep}`).toMatch(/^workspace:/);
      }
    }
  }
  expect(checked).toBeGreaterThan(0);
});
