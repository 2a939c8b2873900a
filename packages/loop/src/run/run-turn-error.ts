// Raised when a workflow engine's turn does not validate: names the run, the turn and every field at
// fault (e.g. "runContext.stepInstruction", "tools[1]").
import { CtxpipeError } from "@ctxpipe/core";

export const LOOP_RUN_TURN_INVALID = "LOOP_RUN_TURN_INVALID";

export class RunTurnError extends CtxpipeError {
  readonly runId: string;
  /** The turn of the continue() call, from 0. */
  readonly turn: number;
  /** Dotted paths of the fields at fault. */
  readonly fields: ReadonlyArray<string>;

  constructor(runId: string, turn: number, problems: ReadonlyArray<{ readonly field: string; readonly message: string }>) {
    const lines = problems.map((problem) => `- ${problem.field}: ${problem.message}`);
    super(LOOP_RUN_TURN_INVALID, `RunLoop's engine returned an invalid turn for run ${JSON.stringify(runId)} (turn ${turn}):\n${lines.join("\n")}`);
    this.name = "RunTurnError";
    this.runId = runId;
    this.turn = turn;
    this.fields = [...new Set(problems.map((problem) => problem.field))];
  }
}
