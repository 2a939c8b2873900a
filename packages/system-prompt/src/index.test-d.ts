// Type tests for the public input types and the build options this package adds to core.
import { type BuildOptions, createPipeline, type InsertSystemPlugin, type PipelinePlugin } from "@ctxpipe/core";
import { describe, expectTypeOf, test } from "vitest";
import {
  type ActiveRunContext,
  type AgentInfo,
  type CompletedRunContext,
  composeSystemPrompt,
  composeSystemSections,
  type FlatRunContext,
  type RunContext,
  type RunContextInput,
  type RunDirectiveOptions,
  readRunContext,
  type SessionMode,
  SYSTEM_PART_ORDER,
  type SystemPartId,
  type SystemPromptInput,
  SystemPromptPlugin,
  type SystemPromptPluginOptions,
  systemPromptPlugins,
  type TemplateName,
  type TemplateOverrides,
  type ToolPolicyConfig,
} from "./index.js";

const step = { id: "s1", name: "Draft", instruction: "Write the draft." };

describe("input types", () => {
  test("seed 000's modes", () => {
    expectTypeOf<SessionMode>().toEqualTypeOf<"chat" | "agent" | "run">();
  });

  test("an agent needs id, name and role; the rest is optional", () => {
    expectTypeOf({ id: "a", name: "Ada", role: "Reviewer" }).toExtend<AgentInfo>();
    // @ts-expect-error role is required
    const noRole: AgentInfo = { id: "a", name: "Ada" };
    // @ts-expect-error seed field names, not the host app's snake_case
    const snake: AgentInfo = { id: "a", name: "Ada", role: "R", communication_style: "terse" };
    expectTypeOf<AgentInfo["principles"]>().toEqualTypeOf<ReadonlyArray<string> | undefined>();
    void noRole;
    void snake;
  });

  test("a running workflow needs its current step; a completed one does not", () => {
    expectTypeOf({ packageName: "p", workflowName: "w", currentStep: step }).toExtend<RunContext>();
    expectTypeOf({ packageName: "p", workflowName: "w", status: "completed" as const }).toExtend<RunContext>();
    // @ts-expect-error running (the default status) without a current step
    const noStep: RunContext = { packageName: "p", workflowName: "w" };
    // @ts-expect-error running explicitly, still without a current step
    const runningNoStep: RunContext = { packageName: "p", workflowName: "w", status: "running" };
    expectTypeOf<ActiveRunContext["currentStep"]>().toEqualTypeOf<{ readonly id: string; readonly name: string; readonly instruction: string }>();
    expectTypeOf<CompletedRunContext["status"]>().toEqualTypeOf<"completed">();
    void noStep;
    void runningNoStep;
  });

  test("the flat shape: the step's id, name and instruction beside the workflow, all required while running", () => {
    expectTypeOf({ packageName: "p", workflowName: "w", currentStepId: "s", currentStepName: "S", stepInstruction: "Do it." }).toExtend<FlatRunContext>();
    expectTypeOf({ packageName: "p", workflowName: "w", status: "completed" as const }).toExtend<FlatRunContext>();
    // @ts-expect-error running without the step's instruction
    const noInstruction: FlatRunContext = { packageName: "p", workflowName: "w", currentStepId: "s", currentStepName: "S" };
    expectTypeOf<RunContextInput>().toEqualTypeOf<RunContext | FlatRunContext>();
    expectTypeOf(readRunContext).returns.toEqualTypeOf<RunContext>();
    void noInstruction;
  });

  test("tool policies are lists of names and rules", () => {
    expectTypeOf<ToolPolicyConfig>().toEqualTypeOf<{
      readonly allowedCategories?: ReadonlyArray<string>;
      readonly deniedCategories?: ReadonlyArray<string>;
      readonly allowedTools?: ReadonlyArray<string>;
      readonly deniedTools?: ReadonlyArray<string>;
      readonly customRules?: ReadonlyArray<string>;
    }>();
  });

  test("the input requires a mode only", () => {
    expectTypeOf({ mode: "chat" as const }).toExtend<SystemPromptInput>();
    // @ts-expect-error mode is required
    composeSystemPrompt({});
    expectTypeOf(composeSystemPrompt).returns.toEqualTypeOf<string>();
    expectTypeOf(composeSystemSections).returns.items.toHaveProperty("id").toEqualTypeOf<"mode" | "base-rules" | "tool-policy" | "persona" | "run-directive">();
  });

  test("templates are overridden by name", () => {
    expectTypeOf<TemplateName>().toEqualTypeOf<"base-rules-chat" | "base-rules-run" | "base-rules-run-completed" | "tool-policy" | "run-directive-protocol" | "run-directive-protocol-completed">();
    expectTypeOf({ "base-rules-chat": "Be kind." }).toExtend<TemplateOverrides>();
    // @ts-expect-error an unknown template name
    new SystemPromptPlugin({ templates: { "base-rules": "x" } });
  });
});

describe("plugin and build options", () => {
  test("build() takes the prompt's inputs, typed", () => {
    const pipeline = createPipeline({ plugins: systemPromptPlugins() });
    void pipeline.build([], { mode: "run", runContext: { packageName: "p", workflowName: "w", currentStep: step }, toolPolicy: { deniedTools: ["shell"] } });
    // @ts-expect-error not a session mode
    void pipeline.build([], { mode: "debug" });
    void pipeline.build([], { mode: "run", runContext: { packageName: "p", workflowName: "w", currentStepId: "s", currentStepName: "S", stepInstruction: "Do it." } });
    expectTypeOf<BuildOptions["runContext"]>().toEqualTypeOf<RunContextInput | undefined>();
    expectTypeOf<BuildOptions["runDirective"]>().toEqualTypeOf<RunDirectiveOptions | undefined>();
    expectTypeOf<BuildOptions["systemToolPolicy"]>().toEqualTypeOf<ToolPolicyConfig | undefined>();
  });

  test("constructor options are the same inputs, each optional, plus templates and stage", () => {
    expectTypeOf<SystemPromptPluginOptions>().toExtend<Partial<SystemPromptInput>>();
    expectTypeOf<SystemPromptPluginOptions["stage"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf(systemPromptPlugins).returns.toEqualTypeOf<[SystemPromptPlugin, InsertSystemPlugin]>();
    expectTypeOf<SystemPromptPlugin>().toExtend<PipelinePlugin>();
  });

  test("part ids and orders are literal constants", () => {
    expectTypeOf(SYSTEM_PART_ORDER.DATA_CONTEXT).toEqualTypeOf<100>();
    expectTypeOf<"summary">().toExtend<SystemPartId>();
  });
});
