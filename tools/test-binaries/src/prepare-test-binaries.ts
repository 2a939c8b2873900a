// The set-up step of `pnpm test`: makes sure the programs the tests drive are here before vitest starts,
// and says which ones will be used. Both normally arrive with `pnpm install`; where those builds cannot
// run, the system's are used, and where the system has none, its package is installed (as root, with
// apt-get) or the step fails saying what to install.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CHROMIUM_SYSTEM_PACKAGE, type ChromiumSearchPlaces, findChromium } from "./find-chromium.js";
import { findPostgresBinaries, POSTGRES_SYSTEM_PACKAGE, type PostgresSearchPlaces } from "./find-postgres-binaries.js";
import { TestBinaryNotFoundError } from "./test-binary-not-found-error.js";

export interface TestBinaries {
  readonly chromium: { readonly executable: string; readonly source: string; readonly version: string };
  readonly postgres: { readonly bindir: string; readonly source: string; readonly version: string };
  /** System packages this run installed (empty when everything was already here). */
  readonly installed: ReadonlyArray<string>;
}

export interface PrepareOptions {
  readonly chromium?: ChromiumSearchPlaces;
  readonly postgres?: PostgresSearchPlaces;
  /** Installs system packages by name; the default uses apt-get when this process is root, and otherwise refuses. */
  readonly installSystemPackages?: (names: ReadonlyArray<string>) => void;
}

export async function prepareTestBinaries(options: PrepareOptions = {}): Promise<TestBinaries> {
  const install = options.installSystemPackages ?? installWithAptGet;
  const missing: string[] = [];
  const chromium = await findChromium(options.chromium).catch((error: unknown) => {
    if (!(error instanceof TestBinaryNotFoundError)) throw error;
    missing.push(CHROMIUM_SYSTEM_PACKAGE);
    return error;
  });
  const postgres = (() => {
    try {
      return findPostgresBinaries(options.postgres);
    } catch (error) {
      if (!(error instanceof TestBinaryNotFoundError)) throw error;
      missing.push(POSTGRES_SYSTEM_PACKAGE);
      return error;
    }
  })();
  if (missing.length > 0) install(missing);

  const foundChromium = chromium instanceof Error ? await findChromium(options.chromium) : chromium;
  const foundPostgres = postgres instanceof Error ? findPostgresBinaries(options.postgres) : postgres;
  return {
    chromium: foundChromium,
    postgres: {
      bindir: path.dirname(foundPostgres.postgres),
      source: foundPostgres.source,
      version: execFileSync(foundPostgres.postgres, ["--version"], { encoding: "utf8" }).trim(),
    },
    installed: missing,
  };
}

function installWithAptGet(names: ReadonlyArray<string>): void {
  const canInstall = process.getuid?.() === 0 && existsSync("/usr/bin/apt-get");
  if (!canInstall) {
    throw new Error(
      `The tests need ${names.join(" and ")}, which this machine does not have and \`pnpm install\` could not bring. ` +
        `Install ${names.length === 1 ? "it" : "them"} (on Debian or Ubuntu: apt-get install ${names.join(" ")}) and run \`pnpm test\` again.`,
    );
  }
  process.stderr.write(`test set-up: installing ${names.join(", ")} with apt-get (not found among the installed packages nor on the system)\n`);
  const environment = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env: environment });
  execFileSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...names], { stdio: ["ignore", "ignore", "inherit"], env: environment });
}

/** Run as a script: `--packaged-only` hides the system's programs, to prove a machine without them is covered. */
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const packagedOnly = process.argv.includes("--packaged-only");
  const binaries = await prepareTestBinaries(
    packagedOnly
      ? {
          chromium: { chosenExecutable: null, systemExecutables: [] },
          postgres: { chosenDirectory: null, debianRoot: "/nonexistent", pgConfig: "/nonexistent/pg_config", pathVariable: "" },
          installSystemPackages: (names) => {
            throw new Error(`with the system's programs hidden, ${names.join(" and ")} did not arrive with pnpm install`);
          },
        }
      : {},
  );
  process.stdout.write(
    `test set-up: ${binaries.chromium.version} (${binaries.chromium.source}), ${binaries.postgres.version} (${binaries.postgres.source})` +
      `${binaries.installed.length > 0 ? `; installed ${binaries.installed.join(", ")}` : ""}\n`,
  );
}
