// Raised when a run that has ended is asked to go on: a completed or abandoned run takes no more
// input, and a terminated one resumes only with new user input.
import { CtxpipeError } from "@ctxpipe/core";
import type { RunEnding } from "./run-ending.js";

export const LOOP_RUN_ENDED = "LOOP_RUN_ENDED";

function howItEnded(ending: RunEnding): string {
  const record = `record ${JSON.stringify(ending.recordId)}${ending.createdAt === undefined ? "" : ` of ${ending.createdAt}`}`;
  switch (ending.status) {
    case "completed":
      return `has completed (${record})`;
    case "abandoned":
      return `was abandoned${ending.reason === undefined ? "" : ` (${JSON.stringify(ending.reason)})`} (${record})`;
    case "terminated":
      return `was terminated${ending.terminatedBy === undefined ? "" : ` by ${ending.terminatedBy}`} (${record})`;
  }
}

export class RunEndedError extends CtxpipeError {
  readonly runId: string;
  readonly ending: RunEnding;

  constructor(runId: string, ending: RunEnding) {
    const next = ending.status === "terminated" ? "continue it with userInput to resume it" : "it takes no more input; start a new run to go on";
    super(LOOP_RUN_ENDED, `Run ${JSON.stringify(runId)} ${howItEnded(ending)}: ${next}.`);
    this.name = "RunEndedError";
    this.runId = runId;
    this.ending = ending;
  }
}
