// zod schemas for the prompt's inputs. Objects are strict, so a misspelt or unmapped field (say
// `communication_style`) is named in the error instead of silently leaving a line out.
import { z } from "zod";
import { SESSION_MODES } from "./session-mode.js";

const name = z.string().min(1, "must not be empty");
const names = z.array(name);

export const sessionModeSchema = z.enum(SESSION_MODES, {
  error: (issue) => (issue.input === undefined ? "required: pass mode in build() options or to the plugin's constructor" : 'must be "chat", "agent" or "run"'),
});

export const agentInfoSchema = z.strictObject({
  id: name,
  name,
  role: name,
  identity: z.string().optional(),
  communicationStyle: z.string().optional(),
  principles: z.array(z.string()).optional(),
  systemPrompt: z.string().optional(),
});

export const toolPolicyConfigSchema = z.strictObject({
  allowedCategories: names.optional(),
  deniedCategories: names.optional(),
  allowedTools: names.optional(),
  deniedTools: names.optional(),
  customRules: z.array(z.string()).optional(),
});

const runStepSchema = z.strictObject({ id: name, name, instruction: z.string().refine((text) => text.trim().length > 0, "must not be blank") });

export const runContextSchema = z
  .strictObject({
    packageName: name,
    workflowName: name,
    status: z.enum(["running", "completed"]).optional(),
    currentStep: runStepSchema.optional(),
    state: z
      .strictObject({
        variables: z.record(z.string(), z.unknown()).optional(),
        stepsCompleted: names.optional(),
        artifacts: z.array(z.string()).optional(),
      })
      .optional(),
    graph: z
      .strictObject({
        outgoingEdges: z.array(z.strictObject({ label: name, targetNodeId: name, isDefault: z.boolean().optional() })).optional(),
      })
      .optional(),
  })
  .superRefine((context, check) => {
    if (context.status !== "completed" && context.currentStep === undefined) {
      check.addIssue({
        code: "custom",
        path: ["currentStep"],
        message: 'required while the workflow is running; pass status: "completed" for the post-completion profile',
      });
    }
    // Two defaults would leave the model to pick one: name every default after the first.
    const edges = context.graph?.outgoingEdges ?? [];
    const defaults = edges.flatMap((edge, index) => (edge.isDefault === true ? [index] : []));
    for (const index of defaults.slice(1)) {
      check.addIssue({
        code: "custom",
        path: ["graph", "outgoingEdges", index, "isDefault"],
        message: `at most one transition may be the default; transition ${defaults[0]} already is`,
      });
    }
  });

const inputFields = {
  agent: agentInfoSchema.optional(),
  toolPolicy: toolPolicyConfigSchema.optional(),
  systemToolPolicy: toolPolicyConfigSchema.optional(),
  runContext: runContextSchema.optional(),
};

/** The whole input of composeSystemPrompt / composeSystemSections: strict, like every object inside it. */
export const systemPromptInputSchema = z.strictObject({ mode: sessionModeSchema, ...inputFields });

/** The same input read from build options, which carry other plugins' fields: loose at the top level only. */
export const buildOptionsInputSchema = z.object({ mode: sessionModeSchema, ...inputFields });

/** The same fields as constructor defaults, each optional. */
export const systemPromptDefaultsSchema = { mode: sessionModeSchema.optional(), ...inputFields };
