// Locates the headless Chromium the browser tests drive. In order: CTXPIPE_CHROMIUM, the build that
// arrives with pnpm install (@sparticuz/chromium ships one brotli-compressed Linux x64 executable, which
// is unpacked once into a cache directory), then the system's Chromium. A packaged build that cannot run
// on this machine (another processor, another OS) is passed over for the system's.
import { execFile } from "node:child_process";
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { createBrotliDecompress } from "node:zlib";
import { installedPackageDirectory } from "./installed-package-directory.js";
import { TestBinaryNotFoundError } from "./test-binary-not-found-error.js";

export interface FoundChromium {
  readonly executable: string;
  /** Where it was found, for messages. */
  readonly source: string;
  /** What `--version` printed, e.g. "Chromium 143.0.7499.0". */
  readonly version: string;
}

export interface ChromiumSearchPlaces {
  /** An executable chosen by the user (CTXPIPE_CHROMIUM by default); null for none. */
  readonly chosenExecutable?: string | null;
  /** The installed @sparticuz/chromium package; null leaves it out. */
  readonly packageDirectory?: string | null;
  /** Where the packaged build is unpacked. */
  readonly cacheDirectory?: string;
  /** System executables, tried in order. */
  readonly systemExecutables?: ReadonlyArray<string>;
}

/** The Debian package that brings Chromium, for the set-up step and for messages. */
export const CHROMIUM_SYSTEM_PACKAGE = "chromium";

const SYSTEM_EXECUTABLES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

export async function findChromium(places: ChromiumSearchPlaces = {}): Promise<FoundChromium> {
  const {
    chosenExecutable = process.env.CTXPIPE_CHROMIUM || null,
    packageDirectory = installedPackageDirectory("@sparticuz/chromium"),
    cacheDirectory = path.join(os.tmpdir(), "ctxpipe-test-binaries"),
    systemExecutables = SYSTEM_EXECUTABLES,
  } = places;

  if (chosenExecutable !== null) {
    const version = await versionOf(chosenExecutable);
    if (version === undefined) throw new Error(`CTXPIPE_CHROMIUM is ${chosenExecutable}, which does not run (\`${chosenExecutable} --version\` failed).`);
    return { executable: chosenExecutable, source: "CTXPIPE_CHROMIUM", version };
  }

  const tried: string[] = [];
  if (packageDirectory === null) {
    tried.push("@sparticuz/chromium (not installed)");
  } else {
    const executable = await unpackedChromium(packageDirectory, cacheDirectory);
    const version = await versionOf(executable);
    if (version !== undefined) return { executable, source: "@sparticuz/chromium", version };
    tried.push(`@sparticuz/chromium (${executable} does not run on this machine)`);
  }

  for (const executable of systemExecutables) {
    tried.push(executable);
    if (!existsSync(executable)) continue;
    const version = await versionOf(executable);
    if (version !== undefined) return { executable, source: executable, version };
  }

  throw new TestBinaryNotFoundError(
    `Chromium not found; looked in ${tried.join(", ")}. The inspector's page is tested in a real headless browser. ` +
      `\`pnpm test\` brings one: run \`pnpm install\`, or let its set-up step install the system package (apt-get install ${CHROMIUM_SYSTEM_PACKAGE}), or point CTXPIPE_CHROMIUM at a Chromium or Chrome executable.`,
  );
}

/** Unpacks the package's chromium.br once per package version; concurrent callers each write a file of their own and rename it into place. */
async function unpackedChromium(packageDirectory: string, cacheDirectory: string): Promise<string> {
  const { version } = JSON.parse(readFileSync(path.join(packageDirectory, "package.json"), "utf8")) as { version: string };
  const directory = path.join(cacheDirectory, `chromium-${version}`);
  const executable = path.join(directory, "chromium");
  if (existsSync(executable)) return executable;
  mkdirSync(directory, { recursive: true });
  const partial = `${executable}.${process.pid}-${Math.random().toString(36).slice(2)}.partial`;
  try {
    await pipeline(createReadStream(path.join(packageDirectory, "bin", "chromium.br")), createBrotliDecompress(), createWriteStream(partial, { mode: 0o755 }));
    renameSync(partial, executable);
  } finally {
    rmSync(partial, { force: true });
  }
  return executable;
}

async function versionOf(executable: string): Promise<string | undefined> {
  try {
    const { stdout } = await promisify(execFile)(executable, ["--version"], { timeout: 30_000 });
    return stdout.trim();
  } catch {
    return undefined;
  }
}
