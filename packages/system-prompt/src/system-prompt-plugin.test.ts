import { createPipeline, type ItemInput, type PipelinePlugin, STAGE } from "@ctxpipe/core";
import { buildWith, wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { agentToolPolicy, completedRun, persona, runningRun, runWithState, systemToolPolicy } from "./__fixtures__/prompt-inputs.js";
import { SystemPromptInputError } from "./system-prompt-input-error.js";
import {
  composeSystemPrompt,
  composeSystemSections,
  SYSTEM_PART_IDS,
  SYSTEM_PART_ORDER,
  SystemPromptPlugin,
  systemPromptPlugins,
  type SystemPromptInput,
} from "./index.js";

const history: ItemInput[] = [
  { id: "m1", type: "system", text: "A stored system prompt: skipped, the prompt is composed fresh." },
  { id: "m2", type: "user", text: "Where are we?" },
  { id: "m3", type: "assistant", text: "Writing the changelog." },
  { id: "m4", type: "user", text: "continue" },
];

const runInput: SystemPromptInput = { mode: "run", agent: persona, toolPolicy: agentToolPolicy, systemToolPolicy, runContext: runningRun };

/** A plugin standing for a retrieval or compression plugin that adds its own system part. */
function extraPart(id: string, text: string, order: number): PipelinePlugin {
  return {
    name: `Extra:${id}`,
    apply: (host) => host.hooks.insertSystem.tap({ name: `Extra:${id}` }, (_items, context) => void context.system.add({ id, text, order })),
  };
}

describe("SystemPromptPlugin in a pipeline", () => {
  test("sends the composed prompt first, states it in the metadata and costs each section in the report", async () => {
    const result = await buildWith(systemPromptPlugins(), history, runInput);
    const prompt = composeSystemPrompt(runInput);
    expect(result.request.messages[0]).toEqual({ role: "system", content: prompt });
    expect(result.request.messages.slice(1).map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(result.metadata).toEqual({ inputCount: 4, outputCount: 4, filteredCount: 0, systemPromptIncluded: true, systemPromptLength: prompt.length });
    expect(result.report.systemParts).toEqual(
      composeSystemSections(runInput).map((section) => ({ ...section, addedBy: "SystemPromptPlugin", tokens: wordTokenizer.count(section.text) })),
    );
    expect(result.report.systemParts.map((part) => part.id)).toEqual(["mode", "base-rules", "tool-policy", "persona", "run-directive"]);
    expect(result.report.warnings).toEqual([]);
  });

  test("includeSystemPrompt: false leaves the prompt out, and the report has no parts", async () => {
    const result = await buildWith(systemPromptPlugins(), history, { ...runInput, includeSystemPrompt: false });
    expect(result.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(result.metadata).toMatchObject({ systemPromptIncluded: false, systemPromptLength: 0 });
    expect(result.report.systemParts).toEqual([]);
  });

  test("the post-completion profile through a build: no active-step information anywhere in the request", async () => {
    const result = await buildWith(systemPromptPlugins(), history, { ...runInput, runContext: completedRun });
    const sent = JSON.stringify(result.request);
    for (const text of ["Current Step", "Step Instruction", "Available Transitions", runningRun.currentStep.instruction.split("\n")[0]!, "notes written"]) {
      expect(sent).not.toContain(text);
    }
    expect(result.report.systemParts.find((part) => part.id === "run-directive")?.text).toContain("**Workflow Status:** completed");
  });

  test("extra parts from other plugins and from build options land at their defined order", async () => {
    const plugins = [
      extraPart(SYSTEM_PART_IDS.SUMMARY, "Summary of 40 earlier messages.", SYSTEM_PART_ORDER.SUMMARY),
      extraPart(SYSTEM_PART_IDS.DATA_CONTEXT, "Project: release-kit 1.4.0", SYSTEM_PART_ORDER.DATA_CONTEXT),
      ...systemPromptPlugins(),
    ];
    const result = await buildWith(plugins, history, { ...runInput, system: "Answer in English." });
    expect(result.report.systemParts.map((part) => [part.id, part.order, part.addedBy])).toEqual([
      ["mode", -500, "SystemPromptPlugin"],
      ["base-rules", -400, "SystemPromptPlugin"],
      ["tool-policy", -300, "SystemPromptPlugin"],
      ["persona", -200, "SystemPromptPlugin"],
      ["run-directive", -100, "SystemPromptPlugin"],
      ["system-0", 0, "build options"],
      ["data-context", 100, "Extra:data-context"],
      ["summary", 200, "Extra:summary"],
    ]);
    expect(result.request.messages[0]?.content).toBe(
      [composeSystemPrompt(runInput), "Answer in English.", "Project: release-kit 1.4.0", "Summary of 40 earlier messages."].join("\n\n---\n\n"),
    );
  });

  test("a user prompt passed with the user-prompt id is reported under it, after the run directive", async () => {
    const result = await buildWith(systemPromptPlugins(), history, { ...runInput, system: [{ id: SYSTEM_PART_IDS.USER_PROMPT, text: "Answer in English." }] });
    expect(result.report.systemParts.slice(-2).map((part) => [part.id, part.order])).toEqual([
      ["run-directive", SYSTEM_PART_ORDER.RUN_DIRECTIVE],
      ["user-prompt", SYSTEM_PART_ORDER.USER_PROMPT],
    ]);
  });

  test("constructor inputs apply to every build; a build's own inputs replace them field by field", async () => {
    const plugins = systemPromptPlugins({ mode: "agent", agent: persona, systemToolPolicy });
    const agentTurn = await buildWith(plugins, history, {});
    expect(agentTurn.request.messages[0]?.content).toBe(composeSystemPrompt({ mode: "agent", agent: persona, systemToolPolicy }));
    const runTurn = await buildWith(plugins, history, { mode: "run", runContext: runningRun });
    expect(runTurn.request.messages[0]?.content).toBe(composeSystemPrompt({ mode: "run", agent: persona, systemToolPolicy, runContext: runningRun }));
  });

  test("a flat run context, from build options or the constructor, sends the prompt its nested twin does", async () => {
    const { currentStep, ...rest } = runningRun;
    const flat = { ...rest, currentStepId: currentStep.id, currentStepName: currentStep.name, stepInstruction: currentStep.instruction };
    const expected = composeSystemPrompt({ mode: "run", runContext: runningRun });
    const perBuild = await buildWith(systemPromptPlugins(), history, { mode: "run", runContext: flat });
    const perPlugin = await buildWith(systemPromptPlugins({ mode: "run", runContext: flat }), history, {});
    expect([perBuild.request.messages[0], perPlugin.request.messages[0]]).toEqual([
      { role: "system", content: expected },
      { role: "system", content: expected },
    ]);
  });

  test("runDirective shows variables and artifacts, from build options or the constructor", async () => {
    const shown = { mode: "run" as const, runContext: runWithState, runDirective: { variables: true, artifacts: true } };
    const expected = composeSystemPrompt(shown);
    expect(expected).toContain("### Variables");
    const perBuild = await buildWith(systemPromptPlugins(), history, shown);
    const perPlugin = await buildWith(systemPromptPlugins({ runDirective: { variables: true, artifacts: true } }), history, { mode: "run", runContext: runWithState });
    expect([perBuild.request.messages[0]?.content, perPlugin.request.messages[0]?.content]).toEqual([expected, expected]);
    const error = await buildWith(systemPromptPlugins(), history, { mode: "run", runContext: runWithState, runDirective: { variable: true } as never }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "SystemPromptInputError", fields: ["runDirective.variable"] });
  });

  test("template overrides given to the plugin are used", async () => {
    const result = await buildWith(systemPromptPlugins({ templates: { "base-rules-chat": "Be kind." } }), history, { mode: "chat" });
    expect(result.request.messages[0]?.content).toBe("# Mode: CHAT\n\n---\n\nBe kind.");
  });

  test("the same input gives a byte-identical request, build after build and pipeline after pipeline", async () => {
    const pipeline = createPipeline({ plugins: systemPromptPlugins() });
    const first = await pipeline.build(history, { ...runInput, tokenizer: wordTokenizer });
    const again = await pipeline.build(history, { ...runInput, tokenizer: wordTokenizer });
    const fresh = await buildWith(systemPromptPlugins(), structuredClone(history), structuredClone(runInput));
    expect(JSON.stringify(again.request)).toBe(JSON.stringify(first.request));
    expect(JSON.stringify(fresh.request)).toBe(JSON.stringify(first.request));
  });

  test("a run context outside run mode is ignored, with a warning", async () => {
    const result = await buildWith(systemPromptPlugins(), history, { mode: "chat", runContext: runningRun });
    expect(result.request.messages[0]?.content).toBe(composeSystemPrompt({ mode: "chat" }));
    expect(result.report.warnings).toEqual(["[SystemPromptPlugin] runContext is ignored in chat mode: the run directive is for run mode only"]);
  });

  test("run mode without a run context warns: the model is not told where the run stands", async () => {
    const result = await buildWith(systemPromptPlugins(), history, { mode: "run", agent: persona });
    expect(result.request.messages[0]?.content).toBe(composeSystemPrompt({ mode: "run", agent: persona }));
    expect(result.report.warnings).toEqual(["[SystemPromptPlugin] run mode without a runContext: the prompt has no run directive, so the model is not told where the run stands"]);
    const withRun = await buildWith(systemPromptPlugins(), history, { mode: "run", runContext: runningRun });
    expect(withRun.report.warnings).toEqual([]);
  });

  test("build options keep other plugins' fields: only the prompt's own inputs are checked strictly", async () => {
    const result = await buildWith(systemPromptPlugins(), history, { mode: "chat", someOtherPluginOption: true } as never);
    expect(result.request.messages[0]?.content).toBe(composeSystemPrompt({ mode: "chat" }));
  });

  test("registered alone, without the --- separator, it warns", async () => {
    const result = await buildWith([new SystemPromptPlugin()], history, { mode: "chat" });
    expect(result.request.messages[0]?.content).toBe(composeSystemPrompt({ mode: "chat" }).replaceAll("\n\n---\n\n", "\n\n"));
    expect(result.report.warnings).toEqual([
      '[SystemPromptPlugin] the system prompt\'s sections are not joined by "---": register systemPromptPlugins(), which sets InsertSystemPlugin\'s separator to SECTION_SEPARATOR',
    ]);
  });

  test("it taps before core's merge, at the stage given", async () => {
    const early = await buildWith([new SystemPromptPlugin({ stage: STAGE.EARLY }), systemPromptPlugins()[1]], history, { mode: "chat" });
    expect(early.request.messages[0]?.content).toBe(composeSystemPrompt({ mode: "chat" }));
  });
});

describe("invalid input", () => {
  test("a running workflow without a current step fails the build, naming the field", async () => {
    const { currentStep: _step, ...noStep } = runningRun;
    const error = await buildWith(systemPromptPlugins(), history, { mode: "run", runContext: noStep as typeof runningRun }).catch((caught: unknown) => caught);
    // Invalid input is an options error, which core hands to the caller as it is (not wrapped in a PluginError).
    expect(error).toBeInstanceOf(SystemPromptInputError);
    expect(error).toMatchObject({
      name: "SystemPromptInputError",
      code: "OPTIONS_INVALID",
      plugin: "SystemPromptPlugin",
      fields: ["runContext.currentStep"],
      message:
        'Invalid options for SystemPromptPlugin:\n✖ required while the workflow is running; pass status: "completed" for the post-completion profile\n  → at runContext.currentStep',
    });
  });

  test("no mode anywhere fails the build, naming mode", async () => {
    const error = await buildWith(systemPromptPlugins(), history, {}).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "SystemPromptInputError", fields: ["mode"] });
  });

  test("a misspelt agent field is named, not silently dropped", async () => {
    const agent = { ...persona, communication_style: "terse" };
    const error = await buildWith(systemPromptPlugins(), history, { mode: "agent", agent }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ fields: ["agent.communication_style"], message: expect.stringContaining('Unrecognized key: "communication_style"') });
  });

  test("bad constructor options throw at once", () => {
    expect(() => new SystemPromptPlugin({ templates: { "base-rules-cht": "x" } as never, runContext: { packageName: "p", workflowName: "" } as never })).toThrow(
      expect.objectContaining({ name: "SystemPromptInputError", plugin: "SystemPromptPlugin", fields: ["runContext.workflowName", "runContext.currentStep", "templates.base-rules-cht"] }),
    );
  });

  test("composeSystemSections validates too", () => {
    expect(() => composeSystemSections({ mode: "debug" } as never)).toThrow(
      expect.objectContaining({ name: "SystemPromptInputError", plugin: "composeSystemSections()", fields: ["mode"], message: expect.stringContaining('must be "chat", "agent" or "run"') }),
    );
    expect(() => composeSystemSections({ mode: "chat" }, { templates: { "tool-polcy": "" } as never })).toThrow(expect.objectContaining({ fields: ["templates.tool-polcy"] }));
  });
});

test("includeSystemPrompt: false skips validation too: there is no prompt to be wrong", async () => {
  const result = await buildWith(systemPromptPlugins(), history, { includeSystemPrompt: false });
  expect(result.report.systemParts).toEqual([]);
});
