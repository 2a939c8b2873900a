// `## Run Directive`: package and workflow, then the current step, its instruction, the completed
// steps, the variables and artifacts when asked for, and the transitions (the default one marked),
// then the run-directive-protocol template. A completed workflow (run mode's post-completion profile)
// gets its status instead of any active-step line, and the completed-run protocol.
import type { RunContext, RunDirectiveOptions } from "../input/run-context.js";
import type { Templates } from "../templates/default-templates.js";

export function runDirectiveSection(run: RunContext, templates: Templates, options: RunDirectiveOptions = {}): string {
  const lines = ["## Run Directive", `**Package:** ${run.packageName}`, `**Workflow:** ${run.workflowName}`];
  const active = run.status === "completed" ? undefined : run.currentStep;
  if (active === undefined) {
    lines.push("**Workflow Status:** completed");
  } else {
    lines.push(`**Current Step:** ${active.name} (${active.id})`, "", "### Step Instruction", active.instruction);
  }
  const completed = run.state?.stepsCompleted;
  if (completed !== undefined && completed.length > 0) lines.push("", `**Completed Steps:** ${completed.join(" → ")}`);
  // Variables and artifacts are run state, not step state: the post-completion profile shows them too.
  const variables = Object.entries(run.state?.variables ?? {}).filter(([, value]) => value !== undefined);
  if (options.variables === true && variables.length > 0) {
    lines.push("", "### Variables");
    for (const [key, value] of variables) lines.push(`- **${key}:** ${variableText(value)}`);
  }
  const artifacts = run.state?.artifacts ?? [];
  if (options.artifacts === true && artifacts.length > 0) {
    lines.push("", "### Artifacts");
    for (const artifact of artifacts) lines.push(`- ${artifact}`);
  }
  const edges = run.graph?.outgoingEdges;
  if (active !== undefined && edges !== undefined && edges.length > 0) {
    lines.push("", "### Available Transitions");
    for (const edge of edges) lines.push(`- **${edge.label}** → ${edge.targetNodeId}${edge.isDefault ? " (default)" : ""}`);
  }
  const protocol = active === undefined ? templates["run-directive-protocol-completed"] : templates["run-directive-protocol"];
  if (protocol.length > 0) lines.push("", protocol);
  return lines.join("\n");
}

/** A one-line string as it is; anything else (numbers, objects, text with line breaks) as JSON, so each variable stays on its line. */
function variableText(value: unknown): string {
  if (typeof value === "string" && !/[\r\n]/.test(value)) return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // A bigint or a cycle: JSON has no text for it.
    return String(value);
  }
}
