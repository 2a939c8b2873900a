// Raised when a run that has ended is asked to go on: an abandoned run takes no more input, a completed
// one only follow-up questions (user input, answered with the post-completion prompt), and a
// terminated one resumes only with new user input. abandon() and terminate() refuse a completed or
// abandoned run.
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
    const next =
      ending.status === "terminated"
        ? "continue it with userInput to resume it"
        : ending.status === "completed"
          ? "it takes follow-up questions only (continue with userInput; they are answered with the post-completion prompt); start a new run for new work"
          : "it takes no more input; start a new run to go on";
    super(LOOP_RUN_ENDED, `Run ${JSON.stringify(runId)} ${howItEnded(ending)}: ${next}.`);
    this.name = "RunEndedError";
    this.runId = runId;
    this.ending = ending;
  }
}
