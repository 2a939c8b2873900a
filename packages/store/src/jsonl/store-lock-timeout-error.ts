// The conversation's lock stayed held by a live process for longer than lockTimeoutMs. The append is
// refused rather than risk two writers: a lock is only taken over when its owner is gone.
import { CtxpipeError } from "@ctxpipe/core";

export const STORE_LOCK_TIMEOUT = "STORE_LOCK_TIMEOUT";

export class StoreLockTimeoutError extends CtxpipeError {
  readonly lockPath: string;
  /** The process holding the lock, when the lock file could be read. */
  readonly ownerPid: number | undefined;

  constructor(lockPath: string, ownerPid: number | undefined, timeoutMs: number) {
    super(
      STORE_LOCK_TIMEOUT,
      `Could not lock ${lockPath} within ${timeoutMs} ms: it is held by ${ownerPid === undefined ? "another process" : `process ${ownerPid}`}, which is still running. ` +
        "If no process of this machine is writing the conversation, delete the lock file.",
    );
    this.name = "StoreLockTimeoutError";
    this.lockPath = lockPath;
    this.ownerPid = ownerPid;
  }
}
