// Where an installed package's files are, found the way Node finds a package (node_modules of this
// directory, then of each parent), without going through its exports map: the binaries these packages
// ship are files beside their code, not exports.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export function installedPackageDirectory(name: string, from = path.dirname(fileURLToPath(import.meta.url))): string | null {
  for (let directory = from; ; directory = path.dirname(directory)) {
    const candidate = path.join(directory, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.dirname(directory) === directory) return null;
  }
}
