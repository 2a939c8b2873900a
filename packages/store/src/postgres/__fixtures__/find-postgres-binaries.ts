// Locates initdb and postgres for the test server: Debian's versioned directories first (highest
// version wins), then what pg_config reports, then PATH. Failing to find them is an error, never a skip:
// a PostgreSQL store whose tests silently did not run is untested.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
  /** Where they were found, for messages. */
  readonly source: string;
}

/** Where to look; the defaults are this machine's. Tests pass empty places to check the failure. */
export interface PostgresSearchPlaces {
  readonly debianRoot?: string;
  readonly pgConfig?: string;
  readonly pathVariable?: string;
}

export function findPostgresBinaries(places: PostgresSearchPlaces = {}): PostgresBinaries {
  const { debianRoot = "/usr/lib/postgresql", pgConfig = "pg_config", pathVariable = process.env.PATH ?? "" } = places;
  const tried: string[] = [];
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

  throw new Error(
    `PostgreSQL server binaries (initdb, postgres) not found; looked in ${tried.join(", ")}. ` +
      "The PostgreSQL store tests start a real server: install one (on Debian or Ubuntu: apt-get install postgresql; .ci/run does this) and run the tests again.",
  );
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

function binariesIn(directory: string, source: string): PostgresBinaries | undefined {
  const initdb = path.join(directory, "initdb");
  const postgres = path.join(directory, "postgres");
  return existsSync(initdb) && existsSync(postgres) ? { initdb, postgres, source } : undefined;
}
