// `## Run Directive`: package and workflow, then the current step, its instruction, the completed
// steps and the transitions (the default one marked), then the run-directive-protocol template.
// A completed workflow (run mode's post-completion profile) gets its status instead of any
// active-step line, and the completed-run protocol.
import type { RunContext } from "../input/run-context.js";
import type { Templates } from "../templates/default-templates.js";

export function runDirectiveSection(run: RunContext, templates: Templates): string {
  const lines = ["## Run Directive", `**Package:** ${run.packageName}`, `**Workflow:** ${run.workflowName}`];
  const active = run.status === "completed" ? undefined : run.currentStep;
  if (active === undefined) {
    lines.push("**Workflow Status:** completed");
  } else {
    lines.push(`**Current Step:** ${active.name} (${active.id})`, "", "### Step Instruction", active.instruction);
  }
  const completed = run.state?.stepsCompleted;
  if (completed !== undefined && completed.length > 0) lines.push("", `**Completed Steps:** ${completed.join(" → ")}`);
  const edges = run.graph?.outgoingEdges;
  if (active !== undefined && edges !== undefined && edges.length > 0) {
    lines.push("", "### Available Transitions");
    for (const edge of edges) lines.push(`- **${edge.label}** → ${edge.targetNodeId}${edge.isDefault ? " (default)" : ""}`);
  }
  const protocol = active === undefined ? templates["run-directive-protocol-completed"] : templates["run-directive-protocol"];
  if (protocol.length > 0) lines.push("", protocol);
  return lines.join("\n");
}
