import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { workspacePackages } from "./workspace-packages.js";

/**
 * Copies what `changeset version` reads and writes to a new temp dir: the root manifest and workspace
 * file, .changeset/, and each workspace package's package.json and CHANGELOG.md. Copying only these
 * (not the whole tree) keeps the copy fast and safe from files other test runs create and delete
 * meanwhile. The root node_modules is linked in so the configured changelog generator resolves.
 */
export function copyRepository(root: string): string {
  const copy = mkdtempSync(join(tmpdir(), "ctxpipe-release-check-"));
  const files = ["package.json", "pnpm-workspace.yaml"];
  for (const { dir } of workspacePackages(root)) {
    for (const file of ["package.json", "CHANGELOG.md"]) files.push(relative(root, join(dir, file)));
  }
  for (const file of files) {
    if (!existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
  }
  cpSync(join(root, ".changeset"), join(copy, ".changeset"), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(copy, "node_modules"), "dir");
  return copy;
}
