// Where a workflow run stands. A running workflow has a current step; a completed one (run mode's
// post-completion profile) has none, and the prompt then carries no active-step information at all.
// Two shapes are accepted: the nested one (`currentStep: { id, name, instruction }`) and the flat one
// an execution engine builds from its own state (`currentStepId`, `currentStepName`, `stepInstruction`);
// both are read into the nested one.

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
  /** Shown in the run directive only with `runDirective: { variables: true }`. */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** Step names or ids, in the order they were completed. */
  readonly stepsCompleted?: ReadonlyArray<string>;
  /** Shown in the run directive only with `runDirective: { artifacts: true }`. */
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

/** The nested shape, which every flat one is read into. */
export type RunContext = ActiveRunContext | CompletedRunContext;

/** The flat shape, running: the current step's fields sit beside the package and workflow names. */
export interface ActiveFlatRunContext extends RunContextFields {
  /** Default "running". */
  readonly status?: "running";
  readonly currentStepId: string;
  readonly currentStepName: string;
  readonly stepInstruction: string;
}

/** The flat shape, completed: the step fields are accepted but never shown. */
export interface CompletedFlatRunContext extends RunContextFields {
  readonly status: "completed";
  readonly currentStepId?: string;
  readonly currentStepName?: string;
  readonly stepInstruction?: string;
}

export type FlatRunContext = ActiveFlatRunContext | CompletedFlatRunContext;

/** What every option that takes a run context accepts: either shape. */
export type RunContextInput = RunContext | FlatRunContext;

/** Which parts of the run state the run directive shows besides the completed steps. Both default to false. */
export interface RunDirectiveOptions {
  /** `### Variables`: one line per variable of `state.variables`. */
  readonly variables?: boolean;
  /** `### Artifacts`: one line per entry of `state.artifacts`. */
  readonly artifacts?: boolean;
}
