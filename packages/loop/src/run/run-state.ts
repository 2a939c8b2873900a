// Where a run stands, worked out from its log alone, so that a restarted process resumes exactly where
// the last one stopped. Steps advance only through complete_step results the loop persisted; how the
// run ended comes from its ending record.
import type { StoredMessage } from "@ctxpipe/store";
import { LogFold } from "./log-fold.js";
import { type RunEnding, runEndingOf } from "./run-ending.js";
import type { ParsedWorkflow, WorkflowEdge, WorkflowStep } from "./workflow-definition.js";

export const COMPLETE_STEP_TOOL = "complete_step";

/**
 * - running: the run goes on (also after a terminated run was resumed with user input);
 * - completed: the workflow is done (its record is persisted once the model has given its final answer);
 * - abandoned, terminated: as the run's ending record says.
 */
export type RunStatus = "running" | "completed" | "abandoned" | "terminated";

export interface RunState {
  readonly status: RunStatus;
  /** The step the run is on; undefined once completed, and when a workflow engine of yours holds the steps and none was given. */
  readonly currentStep: WorkflowStep | undefined;
  /** Step ids, in the order they were completed. */
  readonly stepsCompleted: ReadonlyArray<string>;
  /** How the run ended, from its record in the log; absent while it runs. */
  readonly ending?: RunEnding;
}

/** What a complete_step result records; its JSON is the tool result the model reads. */
export interface StepTransition {
  readonly completed: string;
  readonly transition?: string;
  /** The next step, or null when the workflow is done. */
  readonly next: string | null;
}

export function startState(workflow: ParsedWorkflow): RunState {
  const start = workflow.steps.find((step) => step.id === (workflow.startStepId ?? workflow.steps[0]!.id))!;
  return { status: "running", currentStep: start, stepsCompleted: [] };
}

export function applyTransition(workflow: ParsedWorkflow, state: RunState, transition: StepTransition): RunState {
  const stepsCompleted = [...state.stepsCompleted, transition.completed];
  if (transition.next === null) return { status: "completed", currentStep: undefined, stepsCompleted };
  const next = workflow.steps.find((step) => step.id === transition.next);
  return next === undefined ? state : { status: "running", currentStep: next, stepsCompleted };
}

function readTransition(message: StoredMessage): StepTransition | undefined {
  if (message.role !== "tool" || message.toolName !== COMPLETE_STEP_TOOL || message.is_error === true) return undefined;
  if (typeof message.content !== "string") return undefined;
  try {
    const value = JSON.parse(message.content) as Partial<StepTransition>;
    if (typeof value.completed !== "string" || (value.next !== null && typeof value.next !== "string")) return undefined;
    return value as StepTransition;
  } catch {
    return undefined;
  }
}

export function runStateOf(workflow: ParsedWorkflow, messages: ReadonlyArray<StoredMessage>): RunState {
  return withEnding(stepsOf(workflow).of(messages), runEndingOf(messages));
}

/** Per workflow, the fold of its complete_step results over a log (resumed when the log only grew). */
const folds = new WeakMap<ParsedWorkflow, LogFold<RunState>>();

function stepsOf(workflow: ParsedWorkflow): LogFold<RunState> {
  let fold = folds.get(workflow);
  if (fold === undefined) {
    fold = new LogFold(freezeState(startState(workflow)), (state, message) => {
      const transition = state.status === "running" ? readTransition(message) : undefined;
      return transition === undefined ? state : freezeState(applyTransition(workflow, state, transition));
    });
    folds.set(workflow, fold);
  }
  return fold;
}

/** States are shared by every read of a log that only grew: none may change. */
function freezeState(state: RunState): RunState {
  Object.freeze(state.stepsCompleted);
  return Object.freeze(state);
}

/** A state with the run's ending, when it has one, deciding its status. */
export function withEnding(state: RunState, ending: RunEnding | undefined): RunState {
  return ending === undefined ? state : { ...state, status: ending.status, ending };
}

export function outgoingEdges(workflow: ParsedWorkflow, stepId: string): WorkflowEdge[] {
  return workflow.edges.filter((edge) => edge.from === stepId);
}
