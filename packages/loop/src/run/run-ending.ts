// How a run ends, recorded in its log as seed 001's OUTPUT chunks: one assistant message with
// partType task_completed, task_abandoned or task_terminated. Core imports it as the matching task item,
// so every renderer shows the ending, and the run's state reads it back.
import type { StoredMessage } from "@ctxpipe/store";
import { LogFold } from "./log-fold.js";

export const RUN_ENDING_PART_TYPES = { completed: "task_completed", abandoned: "task_abandoned", terminated: "task_terminated" } as const;

export type RunEndingStatus = keyof typeof RUN_ENDING_PART_TYPES;

/** A terminated run's record text when no reason is given. */
export const TERMINATED_TEXT = "The run was stopped before it finished.";

/** An ending as its record in the log says it. */
export interface RunEnding {
  readonly status: RunEndingStatus;
  /** The id of the record. */
  readonly recordId: string;
  readonly createdAt?: string;
  /** `{"result":…}` (completed), `{"partialResult":…}` or `{}` (abandoned), or the text of a terminated run. */
  readonly content: string;
  /** Why the run was abandoned. */
  readonly reason?: string;
  /** Who stopped a terminated run, e.g. "user". */
  readonly terminatedBy?: string;
}

/** An ending about to be recorded. */
export type RunEndingRequest =
  | { readonly status: "completed"; readonly result: string }
  | { readonly status: "abandoned"; readonly reason: string; readonly partialResult?: unknown }
  | { readonly status: "terminated"; readonly by: string; readonly reason?: string };

type RecordBody = Omit<StoredMessage, "id" | "createdAt" | "mode" | "runId" | "agentId">;

export function endingRecordBody(ending: RunEndingRequest): RecordBody {
  switch (ending.status) {
    case "completed":
      return { role: "assistant", partType: RUN_ENDING_PART_TYPES.completed, content: JSON.stringify({ result: ending.result }) };
    case "abandoned":
      return {
        role: "assistant",
        partType: RUN_ENDING_PART_TYPES.abandoned,
        reason: ending.reason,
        content: JSON.stringify(ending.partialResult === undefined ? {} : { partialResult: ending.partialResult }),
      };
    case "terminated":
      return { role: "assistant", partType: RUN_ENDING_PART_TYPES.terminated, terminatedBy: ending.by, content: ending.reason ?? TERMINATED_TEXT };
  }
}

const STATUS_BY_PART_TYPE = new Map<unknown, RunEndingStatus>(Object.entries(RUN_ENDING_PART_TYPES).map(([status, partType]) => [partType, status as RunEndingStatus]));

export function readRunEnding(message: StoredMessage): RunEnding | undefined {
  const status = message.role === "assistant" ? STATUS_BY_PART_TYPE.get(message.partType) : undefined;
  if (status === undefined) return undefined;
  const content = typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? "");
  return {
    status,
    recordId: message.id,
    ...(message.createdAt === undefined ? {} : { createdAt: message.createdAt }),
    content,
    ...(status === "abandoned" && typeof message.reason === "string" ? { reason: message.reason } : {}),
    ...(status === "terminated" && typeof message.terminatedBy === "string" ? { terminatedBy: message.terminatedBy } : {}),
  };
}

/**
 * The ending that stands at the end of the log: completed and abandoned are final; terminated stands
 * until user input resumes the run after it (the record stays in the log).
 */
export function runEndingOf(messages: ReadonlyArray<StoredMessage>): RunEnding | undefined {
  return endings.of(messages);
}

/** The ending after one more message: a final one stays, a record replaces it, user input resumes a terminated run. */
function nextEnding(ending: RunEnding | undefined, message: StoredMessage): RunEnding | undefined {
  if (ending !== undefined && ending.status !== "terminated") return ending;
  const read = readRunEnding(message);
  if (read !== undefined) return Object.freeze(read);
  return ending !== undefined && message.role === "user" ? undefined : ending;
}

const endings = new LogFold<RunEnding | undefined>(undefined, nextEnding);
