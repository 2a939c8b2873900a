// An inter-process lock for one conversation's log (Node has no flock). The lock is a file created
// atomically with link(2) from a fully written temporary file, so it always names its owner:
// "<pid> <process token> <nonce>". A lock whose owner is dead is taken over: renamed away (rename is
// atomic, so one taker wins), and put back if what was renamed turns out to be a newer, live lock.
// Same machine, local filesystem only: a pid means nothing on another host or over NFS.
//
// Taking and releasing a free lock makes its calls synchronously: on a local disk each takes a few
// microseconds, where a trip through libuv's thread pool takes 30–160 µs, and the two made ten of
// them. Waiting for a held lock (and taking over a dead one, which is rare) stays asynchronous.
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { link, readdir, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { StoreLockTimeoutError } from "./store-lock-timeout-error.js";

/** Tells this process's locks from those of an earlier process that had the same pid (containers). */
const PROCESS_TOKEN = randomBytes(6).toString("hex");
const MAX_BACKOFF_MS = 25;
/** Lock directories this process has swept of dead processes' leftovers since it started. */
const swept = new Set<string>();

export interface FileLockOptions {
  readonly timeoutMs: number;
  /** Called after the lock of a dead process was taken over. */
  readonly onTakeover?: (ownerPid: number | undefined) => void;
}

export async function withFileLock<T>(lockPath: string, options: FileLockOptions, body: () => Promise<T>): Promise<T> {
  const content = await acquire(lockPath, options);
  try {
    // The first time this process holds a lock in a directory, it removes what processes killed
    // mid-way left there (a takeover's renamed lock, a temporary file): otherwise only the next
    // takeover of that very lock would.
    const directory = dirname(lockPath);
    if (!swept.has(directory)) {
      swept.add(directory);
      await removeLeftovers(directory);
    }
    return await body();
  } finally {
    await release(lockPath, content);
  }
}

async function acquire(lockPath: string, options: FileLockOptions): Promise<string> {
  const nonce = randomBytes(6).toString("hex");
  const content = `${process.pid} ${PROCESS_TOKEN} ${nonce}\n`;
  const temporary = `${lockPath}.${process.pid}-${nonce}.tmp`;
  try {
    writeFileSync(temporary, content);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(dirname(lockPath), { recursive: true });
    writeFileSync(temporary, content);
  }
  try {
    const deadline = Date.now() + options.timeoutMs;
    for (let backoff = 1; ; backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
      try {
        linkSync(temporary, lockPath);
        return content;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const owner = readOrUndefined(lockPath);
      if (owner === undefined) continue; // released meanwhile
      if (!ownerIsAlive(owner)) {
        await takeOver(lockPath, owner, nonce, options);
        continue;
      }
      if (Date.now() > deadline) throw new StoreLockTimeoutError(lockPath, ownerPid(owner), options.timeoutMs);
      await sleep(backoff * (0.5 + Math.random()));
    }
  } finally {
    unlinkOrNothing(temporary);
  }
}

async function release(lockPath: string, content: string): Promise<void> {
  // Only remove the lock if it is still ours (a taker that mistook us for dead would have put it back).
  if (readOrUndefined(lockPath) === content) unlinkOrNothing(lockPath);
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function unlinkOrNothing(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

async function takeOver(lockPath: string, staleContent: string, nonce: string, options: FileLockOptions): Promise<void> {
  const aside = `${lockPath}.${process.pid}-${nonce}.stale`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // another process took it over first
    throw error;
  }
  const moved = await readFile(aside, "utf8").catch(() => undefined);
  if (moved !== staleContent && moved !== undefined && ownerIsAlive(moved)) {
    // Between reading and renaming, the dead lock was replaced by a live one: give it back.
    await link(aside, lockPath).catch(() => undefined);
  } else {
    options.onTakeover?.(ownerPid(staleContent));
    await removeLeftovers(dirname(lockPath), basename(lockPath));
  }
  await unlink(aside).catch(() => undefined);
}

/**
 * Temporary files ("<lock>.<pid>-<nonce>.tmp") and renamed locks ("….stale") of processes that died
 * before removing them: those of one lock, or of every lock in the directory.
 */
async function removeLeftovers(directory: string, lockName?: string): Promise<void> {
  const names = await readdir(directory).catch(() => []);
  for (const name of names) {
    const match = /^(.+)\.(\d+)-[0-9a-f]+\.(tmp|stale)$/.exec(name);
    if (match === null || (lockName !== undefined && match[1] !== lockName)) continue;
    if (!pidIsRunning(Number(match[2]))) await unlink(join(directory, name)).catch(() => undefined);
  }
}

function ownerPid(content: string): number | undefined {
  const pid = Number(content.split(" ")[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function ownerIsAlive(content: string): boolean {
  const [, token] = content.split(" ");
  const pid = ownerPid(content);
  // A lock file this protocol wrote always names its owner; anything else is left by a crash.
  if (pid === undefined || token === undefined) return false;
  if (pid === process.pid) return token === PROCESS_TOKEN;
  return pidIsRunning(pid);
}

function pidIsRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
