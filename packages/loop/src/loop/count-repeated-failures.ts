// Counts, from the log, the failures in a row with this fingerprint since the model last answered. Reading the
// count from the log rather than from memory keeps it across restarts (a run resumes after a restart).
// Only a call's final failure is persisted, never its retries, so this counts failed calls, not attempts.
import type { StoredMessage } from "@ctxpipe/store";

/** The field the loop stores on an error message so that identical failures can be recognised. */
export const FAILURE_FINGERPRINT_FIELD = "errorFingerprint";

export function countRepeatedFailures(messages: ReadonlyArray<StoredMessage>, fingerprint: string): number {
  let count = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "assistant") continue;
    if (message.partType !== "error") break;
    // A different failure in between starts the count again, as run mode's consecutive failure count does.
    if (message[FAILURE_FINGERPRINT_FIELD] !== fingerprint) break;
    count++;
  }
  return count;
}
