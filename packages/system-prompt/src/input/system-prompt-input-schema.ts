// zod schemas for the prompt's inputs. Objects are strict, so a misspelt or unmapped field (say
// `communication_style`) is named in the error instead of silently leaving a line out.
import { z } from "zod";
import type { RunContext } from "./run-context.js";
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

const runContextFields = {
  packageName: name,
  workflowName: name,
  status: z.enum(["running", "completed"]).optional(),
  state: z
    .strictObject({
      // Kept as given: rebuilding the record would turn a variable named "__proto__" into the prototype.
      variables: z
        .custom<Record<string, unknown>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), "expected an object of variables")
        .optional(),
      stepsCompleted: names.optional(),
      artifacts: z.array(z.string()).optional(),
    })
    .optional(),
  graph: z
    .strictObject({
      outgoingEdges: z.array(z.strictObject({ label: name, targetNodeId: name, isDefault: z.boolean().optional() })).optional(),
    })
    .optional(),
};

type RunContextShape = { status?: "running" | "completed" | undefined; graph?: { outgoingEdges?: ReadonlyArray<{ isDefault?: boolean | undefined }> | undefined } | undefined };

// Two defaults would leave the model to pick one: name every default after the first.
function checkOneDefault(context: RunContextShape, check: z.RefinementCtx): void {
  const edges = context.graph?.outgoingEdges ?? [];
  const defaults = edges.flatMap((edge, index) => (edge.isDefault === true ? [index] : []));
  for (const index of defaults.slice(1)) {
    check.addIssue({
      code: "custom",
      path: ["graph", "outgoingEdges", index, "isDefault"],
      message: `at most one transition may be the default; transition ${defaults[0]} already is`,
    });
  }
}

const nestedRunContextSchema = z.strictObject({ ...runContextFields, currentStep: runStepSchema.optional() }).superRefine((context, check) => {
  if (context.status !== "completed" && context.currentStep === undefined) {
    check.addIssue({
      code: "custom",
      path: ["currentStep"],
      message: 'required while the workflow is running; pass status: "completed" for the post-completion profile',
    });
  }
  checkOneDefault(context, check);
});

const FLAT_STEP_FIELDS = ["currentStepId", "currentStepName", "stepInstruction"] as const;

const flatRunContextSchema = z
  .strictObject({
    ...runContextFields,
    currentStepId: runStepSchema.shape.id.optional(),
    currentStepName: runStepSchema.shape.name.optional(),
    stepInstruction: runStepSchema.shape.instruction.optional(),
  })
  .superRefine((context, check) => {
    if (context.status !== "completed") {
      for (const field of FLAT_STEP_FIELDS) {
        if (context[field] === undefined) {
          check.addIssue({ code: "custom", path: [field], message: 'required while the workflow is running; pass status: "completed" for the post-completion profile' });
        }
      }
    }
    checkOneDefault(context, check);
  })
  .transform(({ currentStepId, currentStepName, stepInstruction, ...rest }) => {
    // A completed run shows no step: the flat step fields go, as a completed nested one's step is never shown.
    if (rest.status === "completed" || currentStepId === undefined || currentStepName === undefined || stepInstruction === undefined) return rest;
    return { ...rest, currentStep: { id: currentStepId, name: currentStepName, instruction: stepInstruction } };
  });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Either shape of the run context, read into the nested one. An object with any of the flat step fields
 * is read as the flat shape, any other as the nested one, so an error names the fields of the shape the
 * caller meant; an object with both `currentStep` and a flat step field is refused.
 */
export const runContextSchema = z.unknown().transform((value, context) => {
  const flatFields = isRecord(value) ? FLAT_STEP_FIELDS.filter((field) => Object.hasOwn(value, field)) : [];
  if (isRecord(value) && flatFields.length > 0 && Object.hasOwn(value, "currentStep")) {
    for (const field of flatFields) {
      context.addIssue({ code: "custom", path: [field], message: "give the current step either as currentStep: { id, name, instruction } or as currentStepId, currentStepName and stepInstruction, not both" });
    }
    return z.NEVER;
  }
  const result = (flatFields.length > 0 ? flatRunContextSchema : nestedRunContextSchema).safeParse(value);
  if (result.success) return result.data as RunContext;
  for (const issue of result.error.issues) context.addIssue(issue as Parameters<typeof context.addIssue>[0]);
  return z.NEVER;
});

/** Which parts of the run state the run directive shows. */
export const runDirectiveOptionsSchema = z.strictObject({ variables: z.boolean().optional(), artifacts: z.boolean().optional() });

const inputFields = {
  agent: agentInfoSchema.optional(),
  toolPolicy: toolPolicyConfigSchema.optional(),
  systemToolPolicy: toolPolicyConfigSchema.optional(),
  runContext: runContextSchema.optional(),
  runDirective: runDirectiveOptionsSchema.optional(),
};

/** The whole input of composeSystemPrompt / composeSystemSections: strict, like every object inside it. */
export const systemPromptInputSchema = z.strictObject({ mode: sessionModeSchema, ...inputFields });

/** The same input read from build options, which carry other plugins' fields: loose at the top level only. */
export const buildOptionsInputSchema = z.object({ mode: sessionModeSchema, ...inputFields });

/** The same fields as constructor defaults, each optional. */
export const systemPromptDefaultsSchema = { mode: sessionModeSchema.optional(), ...inputFields };
