// Starts a throwaway PostgreSQL server for the tests: a fresh data directory in a temp dir, listening on
// a Unix socket only (no TCP port to collide with anything), fsync off because the data is discarded.
// PostgreSQL refuses to run as root, so under root initdb and postgres run as the `postgres` system user
// (or `nobody`), which owns the temp dir.
import { type ChildProcess, spawn } from "node:child_process";
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
// The test programs live in a private tool package, imported by path: a published package never depends on it.
import { findPostgresBinaries } from "../../../../../tools/test-binaries/src/index.js";

export interface PostgresTestServer {
  /** Connects as the superuser `postgres` to the `postgres` database over the Unix socket. */
  readonly connectionString: string;
  /** How long initdb plus server start took, in milliseconds. */
  readonly startupMilliseconds: number;
  /** Stops the server (fast shutdown) and deletes its data; safe to call twice. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
/** The server's log is kept for error messages only; the tail is what explains a failure. */
const LOG_LIMIT = 16_000;

export interface PostgresTestServerOptions {
  /** Flush to disk as a production server does (default false: the data is thrown away anyway). Benchmarks turn it on. */
  readonly fsync?: boolean;
}

export async function startPostgresServer(options: PostgresTestServerOptions = {}): Promise<PostgresTestServer> {
  const started = performance.now();
  const binaries = findPostgresBinaries();
  const owner = serverUser();
  const root = mkdtempSync(path.join(os.tmpdir(), "ctxpipe-pg-"));
  const dataDirectory = path.join(root, "data");
  const socketDirectory = path.join(root, "socket");
  mkdirSync(dataDirectory);
  mkdirSync(socketDirectory);
  if (owner !== undefined) for (const directory of [root, dataDirectory, socketDirectory]) chownSync(directory, owner.uid, owner.gid);

  let server: ChildProcess | undefined;
  const removeOnExit = () => {
    // Last resort when the test process dies without afterAll: no server or temp dir outlives it.
    server?.kill("SIGQUIT");
    rmSync(root, { recursive: true, force: true });
  };
  process.once("exit", removeOnExit);

  let log = "";
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-LOG_LIMIT);
  };
  const spawnOptions = { cwd: root, env: { ...process.env, LC_ALL: "C" }, ...(owner === undefined ? {} : { uid: owner.uid, gid: owner.gid }) };

  const stop = async () => {
    const running = server;
    server = undefined;
    if (running !== undefined && running.exitCode === null && running.signalCode === null) {
      const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
      running.kill("SIGINT"); // fast shutdown: roll back open transactions, checkpoint, exit
      const timer = setTimeout(() => running.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(root, { recursive: true, force: true });
    process.removeListener("exit", removeOnExit);
  };

  try {
    await run(binaries.initdb, ["-D", dataDirectory, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"], spawnOptions);
    const settings = [
      "listen_addresses=", `unix_socket_directories=${socketDirectory}`, ...(options.fsync === true ? [] : ["fsync=off", "full_page_writes=off"]),
      "shared_buffers=32MB", "max_connections=60", "log_min_messages=warning",
    ];
    const child = spawn(binaries.postgres, ["-D", dataDirectory, ...settings.flatMap((setting) => ["-c", setting])], {
      ...spawnOptions,
      stdio: ["ignore", "pipe", "pipe"],
    });
    server = child;
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    const connectionString = `postgresql://postgres@/postgres?host=${encodeURIComponent(socketDirectory)}`;
    await waitUntilReady(connectionString, child, () => log);
    return { connectionString, startupMilliseconds: performance.now() - started, stop };
  } catch (error) {
    await stop();
    throw new Error(`Could not start the test PostgreSQL server (${binaries.source}${owner === undefined ? "" : `, as ${owner.name}`}): ${(error as Error).message}`, {
      cause: error,
    });
  }
}

interface SystemUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** The user to run the server as when this process is root; undefined when it is not root. */
function serverUser(): SystemUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const users = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .map((line) => line.split(":"))
    .filter((fields) => fields.length >= 4)
    .map(([name, , uid, gid]) => ({ name: name!, uid: Number(uid), gid: Number(gid) }));
  const user = users.find((entry) => entry.name === "postgres") ?? users.find((entry) => entry.name === "nobody");
  if (user === undefined) throw new Error("Running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as.");
  return user;
}

function run(command: string, args: ReadonlyArray<string>, options: Parameters<typeof spawn>[2]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(command)} exited with ${signal ?? `code ${code}`}:\n${output.slice(-LOG_LIMIT)}`));
    });
  });
}

async function waitUntilReady(connectionString: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = performance.now() + READY_TIMEOUT_MS;
  let exit: string | undefined;
  server.once("exit", (code, signal) => {
    exit = signal ?? `code ${code}`;
  });
  server.once("error", (error) => {
    exit = error.message;
  });
  for (;;) {
    if (exit !== undefined) throw new Error(`postgres exited with ${exit}:\n${log()}`);
    const client = new pg.Client({ connectionString });
    try {
      await client.connect();
      await client.query("SELECT 1");
      return;
    } catch (error) {
      if (performance.now() > deadline) throw new Error(`postgres was not ready after ${READY_TIMEOUT_MS} ms (${(error as Error).message}):\n${log()}`);
    } finally {
      await client.end().catch(() => {});
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
