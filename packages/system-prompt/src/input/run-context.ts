// Where a workflow run stands. A running workflow has a current step; a completed one (run mode's
// post-completion profile) has none, and the prompt then carries no active-step information at all.

export type WorkflowStatus = "running" | "completed";

export interface RunStep {
  readonly id: string;
  readonly name: string;
  readonly instruction: string;
}

/** An outgoing edge of the current step. */
export interface RunTransition {
  readonly label: string;
  readonly targetNodeId: string;
  readonly isDefault?: boolean;
}

export interface RunState {
  /** Not shown in the prompt; accepted so callers can pass their engine state as it is. */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** Step names or ids, in the order they were completed. */
  readonly stepsCompleted?: ReadonlyArray<string>;
  /** Not shown in the prompt. */
  readonly artifacts?: ReadonlyArray<string>;
}

export interface RunGraph {
  readonly outgoingEdges?: ReadonlyArray<RunTransition>;
}

interface RunContextFields {
  readonly packageName: string;
  readonly workflowName: string;
  readonly state?: RunState;
  readonly graph?: RunGraph;
}

/** A workflow still running: the current step is required. */
export interface ActiveRunContext extends RunContextFields {
  /** Default "running". */
  readonly status?: "running";
  readonly currentStep: RunStep;
}

/** A completed workflow: no current step, instruction or transitions reach the prompt. */
export interface CompletedRunContext extends RunContextFields {
  readonly status: "completed";
  /** Accepted so an engine's last state can be passed unchanged, but never shown. */
  readonly currentStep?: RunStep;
}

export type RunContext = ActiveRunContext | CompletedRunContext;
