import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { arbitraryAgent, arbitraryInput, arbitraryToolPolicy, arbitraryTransitions } from "./__fixtures__/arbitrary-input.js";
import { composeSystemPrompt, composeSystemSections, mergeToolPolicies, SECTION_SEPARATOR } from "./index.js";

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
