// A run mode workflow: steps with instructions, and edges with labels, one of which may be the
// default way out of a step. A step with no outgoing edge ends the workflow. A step may name its own
// agent and tool policy (seed 003 changes them per step).
import { PluginOptionsError } from "@ctxpipe/core";
import { type AgentInfo, agentInfoSchema, type ToolPolicyConfig, toolPolicyConfigSchema } from "@ctxpipe/system-prompt";
import { z } from "zod";

const stepSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  instruction: z.string(),
  /** Replaces the loop's agent while the run is on this step. */
  agent: agentInfoSchema.optional(),
  /** Replaces the loop's agent-level tool policy on this step; merged with the system-level one, a deny winning. */
  toolPolicy: toolPolicyConfigSchema.optional(),
});

const edgeSchema = z.strictObject({
  from: z.string().min(1),
  to: z.string().min(1),
  label: z.string().min(1),
  isDefault: z.boolean().optional(),
});

export const workflowDefinitionSchema = z
  .strictObject({
    /** Shown as the run directive's workflow. */
    name: z.string().min(1),
    /** Shown as the run directive's package. */
    packageName: z.string().min(1),
    steps: z.array(stepSchema).min(1, "a workflow needs at least one step"),
    edges: z.array(edgeSchema).default([]),
    /** Default: the first step. */
    startStepId: z.string().min(1).optional(),
  })
  .superRefine((workflow, context) => {
    const ids = new Set<string>();
    workflow.steps.forEach((step, index) => {
      if (ids.has(step.id)) context.addIssue({ code: "custom", path: ["steps", index, "id"], message: `step id "${step.id}" is used twice` });
      ids.add(step.id);
    });
    const defaults = new Set<string>();
    const labels = new Set<string>();
    workflow.edges.forEach((edge, index) => {
      for (const end of ["from", "to"] as const) {
        if (!ids.has(edge[end])) context.addIssue({ code: "custom", path: ["edges", index, end], message: `no step has the id "${edge[end]}"` });
      }
      const label = `${edge.from}\u0000${edge.label}`;
      if (labels.has(label)) context.addIssue({ code: "custom", path: ["edges", index, "label"], message: `step "${edge.from}" has two edges labelled "${edge.label}"` });
      labels.add(label);
      if (edge.isDefault === true) {
        if (defaults.has(edge.from)) context.addIssue({ code: "custom", path: ["edges", index, "isDefault"], message: `step "${edge.from}" has two default edges` });
        defaults.add(edge.from);
      }
    });
    if (workflow.startStepId !== undefined && !ids.has(workflow.startStepId)) {
      context.addIssue({ code: "custom", path: ["startStepId"], message: `no step has the id "${workflow.startStepId}"` });
    }
  });

export type WorkflowDefinition = z.input<typeof workflowDefinitionSchema>;
// The step's agent and policy as the system prompt types them (zod's output spells optional fields differently).
export type WorkflowStep = Omit<z.output<typeof stepSchema>, "agent" | "toolPolicy"> & { readonly agent?: AgentInfo; readonly toolPolicy?: ToolPolicyConfig };
export type WorkflowEdge = z.output<typeof edgeSchema>;
export type ParsedWorkflow = Omit<z.output<typeof workflowDefinitionSchema>, "steps"> & { readonly steps: ReadonlyArray<WorkflowStep> };

export function parseWorkflow(owner: string, workflow: unknown): ParsedWorkflow {
  const parsed = workflowDefinitionSchema.safeParse(workflow);
  if (!parsed.success) throw new PluginOptionsError(owner, `workflow: ${z.prettifyError(parsed.error)}`);
  return parsed.data as ParsedWorkflow;
}
