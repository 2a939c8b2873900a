// Every public package's package.json describes something publishable. Only source files are checked
// here (the "@ctxpipe/source" targets, README, LICENSE), so this runs without a build; the built
// export targets are checked inside the packed tarballs (packed-tarballs.test.ts).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { binTargets, exportTargets, launchedFile, packagePath } from "./export-targets.js";
import { dependencyFields } from "./package-manifest.js";
import { repoRoot } from "./repo-root.js";
import { isSemver, satisfiesPeerRange } from "./semver.js";
import { publicPackages, readManifest, workspacePackages } from "./workspace-packages.js";

const packages = publicPackages(repoRoot);
const workspace = new Map(workspacePackages(repoRoot).map((pkg) => [pkg.manifest.name, pkg]));
const rootEngines = readManifest(repoRoot).engines;

it("finds the public packages under packages/", () => {
  expect(packages.map((pkg) => pkg.manifest.name)).toContain("@ctxpipe/core");
});

describe.each(packages.map((pkg) => [pkg.manifest.name, pkg] as const))("%s", (name, pkg) => {
  const { manifest } = pkg;

  it("has a scoped name, a semver version and a description", () => {
    expect(name).toMatch(/^@ctxpipe\/[a-z0-9][a-z0-9-]*$/);
    expect(isSemver(manifest.version), `version ${manifest.version}`).toBe(true);
    expect(manifest.description?.trim().length ?? 0, "description").toBeGreaterThan(20);
  });

  it("has a license field and the license text next to it", () => {
    expect(manifest.license, "license").toBeTruthy();
    const license = join(pkg.dir, "LICENSE");
    expect(existsSync(license), `${license} is missing`).toBe(true);
    expect(readFileSync(license, "utf8")).toContain(`${manifest.license} License`);
  });

  it("has a README naming the package", () => {
    const readme = join(pkg.dir, "README.md");
    expect(existsSync(readme), `${readme} is missing`).toBe(true);
    expect(readFileSync(readme, "utf8")).toContain(name);
  });

  it("is ESM with the repository's Node range and declares its side effects", () => {
    expect(manifest.type).toBe("module");
    expect(manifest.engines?.node, "engines.node").toBe(rootEngines?.node);
    expect(manifest.sideEffects, "sideEffects").toBeDefined();
  });

  it("publishes dist through `files`, and no tests or fixtures", () => {
    expect(manifest.files).toContain("dist");
    if (manifest.files?.includes("src")) {
      expect(manifest.files).toEqual(
        expect.arrayContaining(["!src/**/*.test.ts", "!src/**/*.test-d.ts", "!src/**/__fixtures__"]),
      );
    }
  });

  it("maps every export to types before default, with matching .d.ts and .js files", () => {
    const exportsField = manifest.exports ?? {};
    expect(Object.keys(exportsField)).toContain(".");
    expect(exportsField["./package.json"]).toBe("./package.json");
    for (const [subpath, entry] of Object.entries(exportsField)) {
      if (subpath === "./package.json") continue;
      expect(typeof entry, `exports["${subpath}"] must be a conditions object`).toBe("object");
      const conditions = Object.keys(entry);
      // Node and TypeScript take the first matching condition: "types" must come before "default",
      // and "default" must be last or the conditions after it are never read.
      expect(conditions.indexOf("types"), `exports["${subpath}"].types`).toBeGreaterThanOrEqual(0);
      expect(conditions.at(-1), `exports["${subpath}"] last condition`).toBe("default");
      expect(conditions.indexOf("types")).toBeLessThan(conditions.indexOf("default"));
      const { types, default: js } = entry as Record<string, string>;
      expect(js).toMatch(/^\.\/dist\/.+\.js$/);
      expect(types, `exports["${subpath}"].types matches its .js`).toBe(js!.replace(/\.js$/, ".d.ts"));
    }
  });

  it("points the source condition at files that exist", () => {
    const sources = exportTargets(manifest).filter((entry) => entry.condition === "@ctxpipe/source");
    for (const { subpath, target } of sources) {
      expect(existsSync(join(pkg.dir, packagePath(target))), `exports["${subpath}"] → ${target}`).toBe(true);
    }
  });

  it("has a bin: a committed launcher that loads a command built from a source file", () => {
    const bins = binTargets(manifest);
    if (name === "@ctxpipe/cli") expect(Object.keys(manifest.bin ?? {})).toEqual(["ctxpipe"]);
    for (const bin of bins) {
      // A committed file, so that installing the workspace links the command before anything is built.
      expect(bin).toMatch(/^\.\/bin\/.+\.js$/);
      const launcher = readFileSync(join(pkg.dir, packagePath(bin)), "utf8");
      expect(launcher.startsWith("#!/usr/bin/env node\n"), `${bin} starts with a node shebang`).toBe(true);
      const built = launchedFile(launcher);
      expect(built, `${bin} imports a file under dist/`).toBeDefined();
      const source = built!.replace(/^dist\//, "src/").replace(/\.js$/, ".ts");
      expect(existsSync(join(pkg.dir, source)), `${built} has no source ${source}`).toBe(true);
    }
  });

  it("depends on ctxpipe packages only through ranges that survive publishing", () => {
    for (const field of dependencyFields) {
      for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
        // file:/link: paths mean nothing on a user's machine.
        expect(range, `${field}.${dep}`).not.toMatch(/^(file|link):/);
        if (!dep.startsWith("@ctxpipe/")) continue;
        const target = workspace.get(dep);
        expect(target, `${field}.${dep} is not a workspace package`).toBeDefined();
        expect(target?.manifest.private, `${field}.${dep} is private and never published`).not.toBe(true);
        if (field === "peerDependencies") {
          // A plugin shares the user's copy of core: a range over the 0.x line, met by the current version.
          expect(range, `${field}.${dep}`).toMatch(/^>=\d+\.\d+\.\d+ <\d+$/);
          expect(satisfiesPeerRange(target!.manifest.version, range), `${dep}@${target!.manifest.version} in ${range}`).toBe(true);
          expect(manifest.devDependencies?.[dep], `devDependencies.${dep} for the peer`).toBe("workspace:*");
        } else if (field === "dependencies") {
          // pnpm pack turns workspace:^ into ^x.y.z; workspace:* would pin the exact version.
          expect(range, `${field}.${dep}`).toMatch(/^workspace:[\^~]$/);
        } else {
          expect(range, `${field}.${dep}`).toMatch(/^workspace:/);
        }
      }
    }
  });
});
