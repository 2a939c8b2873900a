import { existsSync } from "node:fs";
import { join } from "node:path";
import { builtTargets, packagePath } from "./export-targets.js";
import { runOrThrow } from "./run-command.js";
import type { WorkspacePackage } from "./workspace-packages.js";

/**
 * Builds the given packages through turbo when one of their built files is missing (a fresh clone),
 * so the tarball checks do not depend on a build having run first. A present dist is used as it is:
 * CI builds just before testing, and rebuilding would rewrite dist under other test runs.
 */
export function ensureBuilt(root: string, packages: readonly WorkspacePackage[]): void {
  const unbuilt = packages.filter((pkg) =>
    builtTargets(pkg.manifest).some((target) => !existsSync(join(pkg.dir, packagePath(target)))),
  );
  if (unbuilt.length === 0) return;
  const filters = unbuilt.map((pkg) => `--filter=${pkg.manifest.name}`);
  runOrThrow("pnpm", ["exec", "turbo", "run", "build", "--output-logs=errors-only", ...filters], root);
}
