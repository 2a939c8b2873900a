import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { arbitraryAgent, arbitraryInput, arbitraryRunContext, arbitraryToolPolicy, arbitraryTransitions } from "./__fixtures__/arbitrary-input.js";
import { composeSystemPrompt, composeSystemSections, type FlatRunContext, mergeToolPolicies, type RunContext, readRunContext, SECTION_SEPARATOR } from "./index.js";

describe("promises", () => {
  test("deterministic: the same input, even as a fresh copy, gives a byte-identical prompt", () => {
    fc.assert(
      fc.property(arbitraryInput, (input) => {
        const prompt = composeSystemPrompt(input);
        expect(composeSystemPrompt(input)).toBe(prompt);
        expect(composeSystemPrompt(structuredClone(input))).toBe(prompt);
        expect(composeSystemSections(input).map((section) => section.text).join(SECTION_SEPARATOR)).toBe(prompt);
      }),
    );
  });

  test("the sections keep seed 000's order, and the prompt opens with the mode header", () => {
    const rank = ["mode", "base-rules", "tool-policy", "persona", "run-directive"];
    fc.assert(
      fc.property(arbitraryInput, (input) => {
        const ids = composeSystemSections(input).map((section) => section.id);
        expect([...ids].sort((left, right) => rank.indexOf(left) - rank.indexOf(right))).toEqual(ids);
        expect(composeSystemPrompt(input).startsWith(`# Mode: ${input.mode.toUpperCase()}\n\n---\n\n`)).toBe(true);
        expect(ids.includes("run-directive")).toBe(input.mode === "run" && input.runContext !== undefined);
      }),
    );
  });

  test("both run-context shapes: a flat context reads as its nested twin and composes the same prompt", () => {
    const flatten = ({ currentStep, ...rest }: RunContext): FlatRunContext =>
      currentStep === undefined ? (rest as FlatRunContext) : ({ ...rest, currentStepId: currentStep.id, currentStepName: currentStep.name, stepInstruction: currentStep.instruction } as FlatRunContext);
    fc.assert(
      fc.property(arbitraryRunContext, fc.boolean(), fc.boolean(), (runContext, variables, artifacts) => {
        const flat = flatten(runContext);
        const read = readRunContext(flat);
        // A completed run's step is never shown, so the flat one's step is not kept.
        if (runContext.status === "completed") expect({ ...read, currentStep: runContext.currentStep }).toEqual(runContext);
        else expect(read).toEqual(runContext);
        const runDirective = { variables, artifacts };
        expect(composeSystemPrompt({ mode: "run", runContext: flat, runDirective })).toBe(composeSystemPrompt({ mode: "run", runContext, runDirective }));
      }),
    );
  });

  test("post-completion: whatever step and transitions the engine still holds, none reaches the prompt", () => {
    // Markers no other generated field can contain, so finding one means step data leaked.
    const step = { id: "STEP-ID-9f2c", name: "STEP-NAME-9f2c", instruction: "STEP-INSTRUCTION-9f2c" };
    fc.assert(
      fc.property(arbitraryAgent, arbitraryToolPolicy, arbitraryTransitions, (agent, toolPolicy, edges) => {
        const outgoingEdges = edges.map((edge, index) => ({ ...edge, label: `EDGE-LABEL-${index}-9f2c`, targetNodeId: `EDGE-TARGET-${index}-9f2c` }));
        const runContext = { packageName: "p", workflowName: "w", status: "completed" as const, currentStep: step, graph: { outgoingEdges } };
        const prompt = composeSystemPrompt({ mode: "run", agent, toolPolicy, runContext });
        expect(prompt).not.toMatch(/9f2c|Current Step|Step Instruction|Available Transitions/);
        // Nor any rule telling the model to work on a step: the run is over.
        expect(prompt).not.toMatch(/current step only|later steps|step's instruction|when the step needs|carry out the step/i);
      }),
    );
  });

  test("merged tool policies: the system level is a ceiling, a deny at either level wins, and a restriction is never lost", () => {
    fc.assert(
      fc.property(fc.option(arbitraryToolPolicy, { nil: undefined }), fc.option(arbitraryToolPolicy, { nil: undefined }), (systemLevel, agentLevel) => {
        const merged = mergeToolPolicies(systemLevel, agentLevel);
        for (const [allowed, denied] of [
          ["allowedCategories", "deniedCategories"],
          ["allowedTools", "deniedTools"],
        ] as const) {
          const deniedAnywhere = new Set([...(systemLevel?.[denied] ?? []), ...(agentLevel?.[denied] ?? [])]);
          const given = [systemLevel?.[allowed], agentLevel?.[allowed]].filter((list) => list !== undefined && list.length > 0);
          expect(new Set(merged[denied] ?? [])).toEqual(deniedAnywhere);
          if (given.length === 0) {
            expect(merged[allowed]).toBeUndefined();
          } else {
            // Allowed by every level that gave a list, denied by none.
            const expected = [...new Set(given[0])].filter((entry) => given.every((list) => list?.includes(entry)) && !deniedAnywhere.has(entry));
            expect(merged[allowed]).toEqual(expected);
            const line = allowed === "allowedTools" ? "Allowed tools" : "Allowed categories";
            expect(composeSystemPrompt({ mode: "chat", ...(systemLevel && { systemToolPolicy: systemLevel }), ...(agentLevel && { toolPolicy: agentLevel }) })).toContain(
              `\n${line}: ${expected.length > 0 ? expected.join(", ") : "(none)"}\n`,
            );
          }
        }
        for (const [key, list] of Object.entries(merged)) {
          if (!key.startsWith("allowed")) expect(list.length).toBeGreaterThan(0);
          expect(new Set(list).size).toBe(list.length);
        }
      }),
    );
  });
});
