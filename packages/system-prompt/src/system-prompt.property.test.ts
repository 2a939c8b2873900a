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
      }),
    );
  });

  test("merged tool policies: a deny at either level wins, and nothing allowed is lost otherwise", () => {
    fc.assert(
      fc.property(fc.option(arbitraryToolPolicy, { nil: undefined }), fc.option(arbitraryToolPolicy, { nil: undefined }), (systemLevel, agentLevel) => {
        const merged = mergeToolPolicies(systemLevel, agentLevel);
        for (const [allowed, denied] of [
          ["allowedCategories", "deniedCategories"],
          ["allowedTools", "deniedTools"],
        ] as const) {
          const deniedAnywhere = new Set([...(systemLevel?.[denied] ?? []), ...(agentLevel?.[denied] ?? [])]);
          const allowedAnywhere = new Set([...(systemLevel?.[allowed] ?? []), ...(agentLevel?.[allowed] ?? [])]);
          expect(new Set(merged[denied] ?? [])).toEqual(deniedAnywhere);
          expect(new Set(merged[allowed] ?? [])).toEqual(new Set([...allowedAnywhere].filter((entry) => !deniedAnywhere.has(entry))));
        }
        for (const list of Object.values(merged)) {
          expect(list.length).toBeGreaterThan(0);
          expect(new Set(list).size).toBe(list.length);
        }
      }),
    );
  });
});
