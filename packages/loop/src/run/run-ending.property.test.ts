// Invariants of a run's endings for any sequence of calls (answers, a completed workflow, aborts) and of
// abandon() and terminate(), each by a fresh loop (a process of its own) over one JSON-lines log:
// - the log always loads and imports, every ending rendering as a task item;
// - each ending is recorded exactly once: nothing follows an abandoned run, no other ending follows a
//   completed one (follow-up questions may), and two terminated records always have user input between them;
// - the state the loop reads back is the state a reference model predicts, and so is every refusal.
import { importStoredMessages } from "@ctxpipe/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { counterIds, tempStore } from "../__fixtures__/loop-fixtures.js";
import { type ScriptEntry, scriptedModel } from "../model/scripted-model.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { RunLoop } from "./run-loop.js";
import type { WorkflowDefinition } from "./workflow-definition.js";

const workflow: WorkflowDefinition = { name: "one-step", packageName: "p", steps: [{ id: "only", name: "Only", instruction: "Do the one thing." }] };

type Operation =
  | { readonly kind: "continue"; readonly input: boolean; readonly script: "answer" | "complete" | "abort" }
  | { readonly kind: "terminate" }
  | { readonly kind: "abandon" };

const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("continue" as const), input: fc.boolean(), script: fc.constantFrom("answer" as const, "complete" as const, "abort" as const) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "terminate" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "abandon" as const }) },
);

type Expected = "fresh" | "running" | "completed" | "abandoned" | "terminated";

/** What the operation does to a run in the given status: its new status, or the refusal it meets. */
function reference(status: Expected, operation: Operation): { status: Expected; refused?: "LOOP_RUN_ENDED" | "OPTIONS_INVALID" } {
  const ended = status === "completed" || status === "abandoned";
  if (operation.kind === "continue") {
    if (status === "abandoned" || ((status === "terminated" || status === "completed") && !operation.input)) return { status, refused: "LOOP_RUN_ENDED" };
    // A follow-up on a completed run is answered, and the run stays completed, however the call ends.
    if (status === "completed") return { status };
    if (status === "fresh" && !operation.input) return { status, refused: "OPTIONS_INVALID" };
    return { status: operation.script === "answer" ? "running" : operation.script === "complete" ? "completed" : "terminated" };
  }
  if (status === "fresh") return { status, refused: "OPTIONS_INVALID" };
  if (ended) return { status, refused: "LOOP_RUN_ENDED" };
  return { status: operation.kind === "terminate" ? "terminated" : "abandoned" };
}

describe("RunLoop endings (property)", () => {
  it("any sequence of calls, aborts, terminate() and abandon() records each ending once, and the state reads back as predicted", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operationArbitrary, { minLength: 1, maxLength: 8 }), async (operations) => {
        const { store } = tempStore();
        let expected: Expected = "fresh";
        for (const [index, operation] of operations.entries()) {
          const controller = new AbortController();
          const abortingTool: LoopTool = {
            name: "work",
            run: () => {
              controller.abort();
              return "stopped";
            },
          };
          const script: ScriptEntry[] =
            operation.kind === "continue" && operation.script === "complete"
              ? [{ toolCalls: [{ name: "complete_step" }] }, { text: "All done." }]
              : operation.kind === "continue" && operation.script === "abort"
                ? [{ toolCalls: [{ name: "work" }] }]
                : [{ text: "Working on it." }];
          const loop = new RunLoop({ model: scriptedModel(script), store, workflow, tools: [abortingTool], newId: counterIds(`op${index}-`) });
          const predicted = reference(expected, operation);
          const act =
            operation.kind === "continue"
              ? loop.continue({ runId: "r", ...(operation.input ? { userInput: `input ${index}` } : {}), signal: controller.signal })
              : operation.kind === "terminate"
                ? loop.terminate("r")
                : loop.abandon("r", { reason: `reason ${index}` });
          const outcome = await act.then(
            () => undefined,
            (error: { code?: string }) => error.code,
          );
          expect(outcome).toBe(predicted.refused);
          expected = predicted.status;
          if (expected !== "fresh") expect((await loop.state("r")).status).toBe(expected === "completed" ? "completed" : expected);
        }

        const { messages } = await store.load("run-r");
        const items = importStoredMessages(messages);
        const endings = items.filter((item) => item.type.startsWith("task-"));
        expect(endings.length).toBe(messages.filter((message) => typeof message.partType === "string" && message.partType.startsWith("task_")).length);
        let last: string | undefined;
        let completed = false;
        for (const message of messages) {
          const ending = typeof message.partType === "string" && message.partType.startsWith("task_") ? message.partType : undefined;
          // Nothing follows an abandoned run; a completed run takes follow-ups, but never another ending.
          expect(last).not.toBe("task_abandoned");
          if (completed) expect(ending).toBeUndefined();
          if (ending === "task_terminated") expect(last).not.toBe("task_terminated");
          if (ending !== undefined) last = ending;
          else if (message.role === "user") last = last === "task_abandoned" ? last : undefined;
          if (ending === "task_completed") completed = true;
        }
      }),
      { numRuns: 40, seed: 23 },
    );
  }, 120_000);
});
