// The tool through which the model finishes the current step and takes one of its edges. Its result is
// the record the run's state is read back from (run-state.ts).
import type { LoopTool } from "../tools/loop-tool.js";
import { applyTransition, COMPLETE_STEP_TOOL, outgoingEdges, type RunState, type StepTransition } from "./run-state.js";
import type { ParsedWorkflow } from "./workflow-definition.js";

/** A complete_step bound to the run's state; `state.current` moves as calls succeed within a turn. */
export function completeStepTool(workflow: ParsedWorkflow, state: { current: RunState }): LoopTool {
  return {
    name: COMPLETE_STEP_TOOL,
    description:
      "Call when the current step's instruction is done. Give the label of the transition to take when the step has several; without one, the default transition is taken.",
    parameters: {
      type: "object",
      properties: { transition: { type: "string", description: "The label of the transition to take, as the run directive lists it." } },
    },
    run(args) {
      const step = state.current.currentStep;
      if (state.current.status === "completed" || step === undefined) throw new Error("the workflow is already completed");
      const edges = outgoingEdges(workflow, step.id);
      const label = typeof args.transition === "string" ? args.transition : undefined;
      let transition: StepTransition;
      if (edges.length === 0) {
        transition = { completed: step.id, next: null };
      } else {
        const choices = edges.map((candidate) => `"${candidate.label}"`).join(", ");
        const byLabel = label === undefined ? undefined : edges.find((candidate) => candidate.label === label);
        if (label !== undefined && byLabel === undefined) throw new Error(`step "${step.id}" has no transition "${label}": choose one of ${choices}`);
        const edge = byLabel ?? edges.find((candidate) => candidate.isDefault === true) ?? (edges.length === 1 ? edges[0] : undefined);
        if (edge === undefined) throw new Error(`step "${step.id}" has no default transition: choose one of ${choices}`);
        transition = { completed: step.id, transition: edge.label, next: edge.to };
      }
      state.current = applyTransition(workflow, state.current, transition);
      return JSON.stringify(transition);
    },
  };
}
