// fast-check arbitraries for the prompt's inputs, valid by construction.
import fc from "fast-check";
import type { AgentInfo, RunContext, RunStep, RunTransition, SystemPromptInput, ToolPolicyConfig } from "../index.js";

const text = fc.string({ minLength: 1, maxLength: 24, unit: "grapheme" });
const texts = fc.array(text, { maxLength: 4 });

export const arbitraryAgent: fc.Arbitrary<AgentInfo> = fc.record(
  { id: text, name: text, role: text, identity: fc.string(), communicationStyle: fc.string(), principles: fc.array(fc.string(), { maxLength: 3 }), systemPrompt: fc.string() },
  { requiredKeys: ["id", "name", "role"] },
);

export const arbitraryToolPolicy: fc.Arbitrary<ToolPolicyConfig> = fc.record(
  { allowedCategories: texts, deniedCategories: texts, allowedTools: texts, deniedTools: texts, customRules: fc.array(fc.string(), { maxLength: 3 }) },
  { requiredKeys: [] },
);

export const arbitraryStep: fc.Arbitrary<RunStep> = fc.record({ id: text, name: text, instruction: fc.string().filter((instruction) => instruction.trim().length > 0) });

/** Up to three transitions, at most one of them the default. */
export const arbitraryTransitions: fc.Arbitrary<RunTransition[]> = fc
  .tuple(fc.array(fc.record({ label: text, targetNodeId: text, isDefault: fc.constant(false) }, { requiredKeys: ["label", "targetNodeId"] }), { maxLength: 3 }), fc.nat())
  .map(([edges, pick]) => edges.map((edge, index) => (edges.length > 0 && index === pick % (edges.length + 1) ? { ...edge, isDefault: true } : edge)));

const runFields = {
  packageName: text,
  workflowName: text,
  state: fc.record({ stepsCompleted: texts, variables: fc.dictionary(fc.string(), fc.jsonValue()) }, { requiredKeys: [] }),
  graph: fc.record({ outgoingEdges: arbitraryTransitions }, { requiredKeys: [] }),
};

export const arbitraryRunContext: fc.Arbitrary<RunContext> = fc.oneof(
  fc.record({ ...runFields, status: fc.constant("running" as const), currentStep: arbitraryStep }, { requiredKeys: ["packageName", "workflowName", "currentStep"] }),
  fc.record({ ...runFields, status: fc.constant("completed" as const), currentStep: arbitraryStep }, { requiredKeys: ["packageName", "workflowName", "status"] }),
);

export const arbitraryInput: fc.Arbitrary<SystemPromptInput> = fc.record(
  {
    mode: fc.constantFrom("chat", "agent", "run"),
    agent: arbitraryAgent,
    toolPolicy: arbitraryToolPolicy,
    systemToolPolicy: arbitraryToolPolicy,
    runContext: arbitraryRunContext,
  },
  { requiredKeys: ["mode"] },
);
