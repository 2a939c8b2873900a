import { describe, expect, test } from "vitest";
import { completedRun, firstStepRun, runningRun } from "../__fixtures__/prompt-inputs.js";
import { composeSystemPrompt, type FlatRunContext, type RunContext, readRunContext, SystemPromptInputError } from "../index.js";

/** runningRun as an execution engine hands it over: the current step's fields flattened beside the workflow's. */
const flatRunning: FlatRunContext = {
  packageName: runningRun.packageName,
  workflowName: runningRun.workflowName,
  currentStepId: runningRun.currentStep.id,
  currentStepName: runningRun.currentStep.name,
  stepInstruction: runningRun.currentStep.instruction,
  ...(runningRun.state && { state: runningRun.state }),
  ...(runningRun.graph && { graph: runningRun.graph }),
};

/** What the flat completed run reads as: the post-completion profile shows no step, so the flat step fields are left behind. */
const { currentStep: _lastStep, ...completedWithoutStep } = completedRun;

describe("readRunContext: both shapes, read into the nested one", () => {
  test.for<readonly [string, unknown, RunContext]>([
    ["nested, running", runningRun, runningRun],
    ["nested, completed", completedRun, completedRun],
    ["flat, running", flatRunning, runningRun],
    [
      "flat, status running given",
      { packageName: "release-kit", workflowName: "ship-a-release", status: "running", currentStepId: "check-tree", currentStepName: "Check the working tree", stepInstruction: "Make sure the working tree is clean." },
      firstStepRun,
    ],
    ["flat, completed with the engine's last step", { ...flatRunning, status: "completed", state: completedRun.state }, completedWithoutStep],
    ["flat, completed without a step", { packageName: "p", workflowName: "w", status: "completed" }, { packageName: "p", workflowName: "w", status: "completed" }],
  ])("%s", ([, input, expected]) => {
    expect(readRunContext(input)).toStrictEqual(expected);
  });

  test("the flat shape composes the same prompt as the nested one, byte for byte", () => {
    expect(composeSystemPrompt({ mode: "run", runContext: flatRunning })).toBe(composeSystemPrompt({ mode: "run", runContext: runningRun }));
    const flatCompleted: FlatRunContext = { ...flatRunning, status: "completed", state: completedRun.state ?? {} };
    expect(composeSystemPrompt({ mode: "run", runContext: flatCompleted })).toBe(composeSystemPrompt({ mode: "run", runContext: completedRun }));
  });
});

describe("readRunContext: when neither shape fits, the error names the field", () => {
  const { currentStepName: _name, stepInstruction: _instruction, ...onlyId } = flatRunning as FlatRunContext & { currentStepName?: string; stepInstruction?: string };
  test.for<readonly [string, unknown, ReadonlyArray<string>, string]>([
    ["nested without a step", { packageName: "p", workflowName: "w" }, ["runContext.currentStep"], 'required while the workflow is running; pass status: "completed" for the post-completion profile'],
    ["flat without name and instruction", onlyId, ["runContext.currentStepName", "runContext.stepInstruction"], "required while the workflow is running"],
    ["flat with a blank instruction", { ...flatRunning, stepInstruction: " \n" }, ["runContext.stepInstruction"], "must not be blank"],
    ["flat with an empty step id", { ...flatRunning, currentStepId: "" }, ["runContext.currentStepId"], "must not be empty"],
    ["flat with an unknown field (title is not a flat field)", { ...flatRunning, title: "Write it" }, ["runContext.title"], 'Unrecognized key: "title"'],
    [
      "both shapes at once",
      { ...runningRun, currentStepId: "changelog", stepInstruction: "Write it." },
      ["runContext.currentStepId", "runContext.stepInstruction"],
      "give the current step either as currentStep: { id, name, instruction } or as currentStepId, currentStepName and stepInstruction, not both",
    ],
    ["flat with two default transitions", { ...flatRunning, graph: { outgoingEdges: [{ label: "a", targetNodeId: "a", isDefault: true }, { label: "b", targetNodeId: "b", isDefault: true }] } }, ["runContext.graph.outgoingEdges.1.isDefault"], "at most one transition may be the default"],
    ["not an object", "changelog", ["runContext"], "expected object"],
  ])("%s", ([, input, fields, message]) => {
    const error = (() => {
      try {
        readRunContext(input);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(SystemPromptInputError);
    expect(error).toMatchObject({ name: "SystemPromptInputError", code: "OPTIONS_INVALID", plugin: "readRunContext()", fields, message: expect.stringContaining(message) });
  });

  test("composeSystemPrompt names the flat field the same way", () => {
    expect(() => composeSystemPrompt({ mode: "run", runContext: onlyId as FlatRunContext })).toThrow(
      expect.objectContaining({ name: "SystemPromptInputError", fields: ["runContext.currentStepName", "runContext.stepInstruction"] }),
    );
  });
});

test('a variable named "__proto__" (as JSON from an engine may hold) is kept and shown, not taken for the prototype', () => {
  const flat = JSON.parse('{"packageName":"ops","workflowName":"deploy","state":{"variables":{"__proto__":"x","region":"eu"}},"status":"completed"}') as FlatRunContext;
  expect(Object.keys(readRunContext(flat).state?.variables ?? {})).toEqual(["__proto__", "region"]);
  expect(composeSystemPrompt({ mode: "run", runContext: flat, runDirective: { variables: true } })).toContain("- **__proto__:** x");
});
