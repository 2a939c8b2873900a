import type { PackageManifest } from "./package-manifest.js";

export interface ExportTarget {
  /** The subpath key, e.g. "." or "./testing". */
  readonly subpath: string;
  /** The condition, e.g. "types"; "" for a subpath mapped straight to a string. */
  readonly condition: string;
  /** The target path as written, e.g. "./dist/index.js". */
  readonly target: string;
}

/** Every (subpath, condition, target) of a manifest's `exports`, in the order written. */
export function exportTargets(manifest: PackageManifest): ExportTarget[] {
  const targets: ExportTarget[] = [];
  for (const [subpath, entry] of Object.entries(manifest.exports ?? {})) {
    if (typeof entry === "string") {
      targets.push({ subpath, condition: "", target: entry });
      continue;
    }
    for (const [condition, target] of Object.entries(entry)) targets.push({ subpath, condition, target });
  }
  return targets;
}

/** The files `bin` points at, as written (e.g. "./bin/ctxpipe.js"). */
export function binTargets(manifest: PackageManifest): string[] {
  const { bin } = manifest;
  if (bin === undefined) return [];
  return typeof bin === "string" ? [bin] : Object.values(bin);
}

/** The built file a committed bin launcher loads ("dist/bin.js" for `await import("../dist/bin.js")`), if any. */
export function launchedFile(launcher: string): string | undefined {
  return /import\("\.\.\/(dist\/[\w/-]+\.js)"\)/.exec(launcher)?.[1];
}

/** The built files a publish needs: export targets other than the source condition, and bins. */
export function builtTargets(manifest: PackageManifest): string[] {
  return [
    ...exportTargets(manifest)
      .filter((entry) => entry.condition !== "@ctxpipe/source")
      .map((entry) => entry.target),
    ...binTargets(manifest),
  ];
}

/** "./dist/index.js" → "dist/index.js": the path inside the package (and, prefixed, the tarball). */
export function packagePath(target: string): string {
  return target.replace(/^\.\//, "");
}
