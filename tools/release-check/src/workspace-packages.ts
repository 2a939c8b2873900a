import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PackageManifest } from "./package-manifest.js";

export interface WorkspacePackage {
  /** Absolute directory of the package. */
  readonly dir: string;
  readonly manifest: PackageManifest;
}

export function readManifest(dir: string): PackageManifest {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageManifest;
}

/**
 * Every package under `root`'s workspace globs. Only the plain forms this repository uses are
 * understood ("dir" and "dir/*"); anything else throws, so a new glob cannot silently drop packages.
 */
export function workspacePackages(root: string): WorkspacePackage[] {
  const packageGlobs = workspaceGlobs(readFileSync(join(root, "pnpm-workspace.yaml"), "utf8"));
  const dirs: string[] = [];
  for (const glob of packageGlobs) {
    if (glob.endsWith("/*")) {
      const parent = join(root, glob.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const entry of readdirSync(parent, { withFileTypes: true })) {
        if (entry.isDirectory()) dirs.push(join(parent, entry.name));
      }
    } else if (!glob.includes("*")) {
      dirs.push(join(root, glob));
    } else {
      throw new Error(`pnpm-workspace.yaml: the glob ${glob} is not understood by the release checks`);
    }
  }
  return dirs
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, manifest: readManifest(dir) }));
}

/** The entries of the top-level `packages:` list of a pnpm-workspace.yaml. */
export function workspaceGlobs(yaml: string): string[] {
  const globs: string[] = [];
  let inPackages = false;
  for (const line of yaml.split("\n")) {
    if (/^\S/.test(line)) inPackages = line.startsWith("packages:");
    const entry = inPackages ? /^\s+-\s+["']?([^"'#]+?)["']?\s*$/.exec(line) : null;
    if (entry) globs.push(entry[1]!);
  }
  return globs;
}

/** The packages that get published: everything in packages/* not marked private. */
export function publicPackages(root: string): WorkspacePackage[] {
  return workspacePackages(root).filter(
    (pkg) => pkg.manifest.private !== true && pkg.dir.startsWith(join(root, "packages")),
  );
}
