import { describe, expect, test } from "vitest";
import { agentToolPolicy, completedRun, firstStepRun, persona, precompiled, runningRun, runWithState, systemToolPolicy } from "./__fixtures__/prompt-inputs.js";
import { composeSystemPrompt, composeSystemSections, type SystemPromptInput } from "./index.js";

// Golden files: the exact prompt for each mode, with and without persona, policy, precompiled
// prompt and run context, and the post-completion profile. `vitest -u` rewrites them; review the diff.
const GOLDEN: ReadonlyArray<readonly [string, SystemPromptInput]> = [
  ["chat", { mode: "chat" }],
  ["chat-persona", { mode: "chat", agent: persona }],
  ["chat-policy", { mode: "chat", systemToolPolicy }],
  ["chat-persona-policy", { mode: "chat", agent: persona, toolPolicy: agentToolPolicy, systemToolPolicy }],
  ["chat-precompiled", { mode: "chat", agent: precompiled }],
  ["agent", { mode: "agent" }],
  ["agent-persona", { mode: "agent", agent: persona }],
  ["agent-policy", { mode: "agent", toolPolicy: agentToolPolicy }],
  ["agent-persona-policy", { mode: "agent", agent: persona, toolPolicy: agentToolPolicy, systemToolPolicy }],
  ["agent-precompiled-policy", { mode: "agent", agent: precompiled, toolPolicy: agentToolPolicy }],
  [
    "agent-policy-nothing-allowed",
    { mode: "agent", toolPolicy: { allowedCategories: ["network"], allowedTools: ["shell.exec"] }, systemToolPolicy: { allowedCategories: ["fs"], deniedTools: ["shell.exec"] } },
  ],
  ["run", { mode: "run" }],
  ["run-persona-policy", { mode: "run", agent: persona, toolPolicy: agentToolPolicy, systemToolPolicy }],
  ["run-directive", { mode: "run", runContext: runningRun }],
  ["run-directive-first-step", { mode: "run", runContext: firstStepRun }],
  ["run-directive-persona-policy", { mode: "run", agent: persona, toolPolicy: agentToolPolicy, systemToolPolicy, runContext: runningRun }],
  ["run-directive-precompiled", { mode: "run", agent: precompiled, runContext: runningRun }],
  ["run-completed", { mode: "run", runContext: completedRun }],
  ["run-completed-persona-policy", { mode: "run", agent: persona, toolPolicy: agentToolPolicy, systemToolPolicy, runContext: completedRun }],
  ["run-directive-state", { mode: "run", runContext: runWithState, runDirective: { variables: true, artifacts: true } }],
  ["run-completed-state", { mode: "run", runContext: { ...runWithState, status: "completed" }, runDirective: { variables: true, artifacts: true } }],
];

describe("composeSystemPrompt golden prompts", () => {
  test.for(GOLDEN)("%s", async ([name, input]) => {
    await expect(`${composeSystemPrompt(input)}\n`).toMatchFileSnapshot(`__fixtures__/${name}.prompt.md`);
  });
});

describe("seed 000's layout", () => {
  // With the templates that extend the policy and directive sections emptied, what is left is seed
  // 000's sketch line for line.
  const bare = { templates: { "tool-policy": "", "run-directive-protocol": "", "base-rules-run": "RUN RULES" } };

  test("sections in seed order, joined by ---", () => {
    const prompt = composeSystemPrompt({ mode: "run", agent: persona, toolPolicy: agentToolPolicy, systemToolPolicy, runContext: runningRun }, bare);
    expect(prompt).toBe(
      [
        "# Mode: RUN",
        "RUN RULES",
        [
          "## Tool Policy",
          "Allowed categories: fs",
          "Denied categories: network",
          "Allowed tools: fs.read, fs.apply_patch",
          "Denied tools: shell.exec",
          "",
          "### Custom Rules",
          "- Write only inside the project root.",
          "- Confirm with the user before publishing.",
        ].join("\n"),
        [
          "## Agent Persona",
          "**Name:** Rhea",
          "**Role:** Release manager",
          "**Identity:** Ships versioned packages for a TypeScript monorepo and keeps the changelog honest.",
          "**Communication Style:** Short, numbered steps; states risks first.",
          "",
          "**Principles:**",
          "- Never publish from a dirty working tree.",
          "- Every change has a changeset.",
          "- Ask before anything irreversible.",
        ].join("\n"),
        [
          "## Run Directive",
          "**Package:** release-kit",
          "**Workflow:** ship-a-release",
          "**Current Step:** Write the changelog (changelog)",
          "",
          "### Step Instruction",
          "Collect the pending changesets and write the release notes to CHANGELOG.md.",
          "Group them by package.",
          "",
          "**Completed Steps:** Check the working tree → Run the tests",
          "",
          "### Available Transitions",
          "- **notes written** → publish (default)",
          "- **changesets missing** → collect-changesets",
        ].join("\n"),
      ].join("\n\n---\n\n"),
    );
  });

  test("an allow list left empty by the merge says (none): the restriction is not dropped", () => {
    const templates = { "base-rules-chat": "", "tool-policy": "" };
    const input: SystemPromptInput = { mode: "chat", systemToolPolicy: { allowedTools: ["fs.read"], allowedCategories: ["fs"] }, toolPolicy: { deniedTools: ["fs.read"], allowedCategories: ["ui"] } };
    expect(composeSystemPrompt(input, { templates })).toBe("# Mode: CHAT\n\n---\n\n## Tool Policy\nAllowed categories: (none)\nAllowed tools: (none)\nDenied tools: fs.read");
  });

  test("agent mode uses the chat base rules; run mode its own", () => {
    const templates = { "base-rules-chat": "CHAT RULES", "base-rules-run": "RUN RULES" };
    expect(composeSystemPrompt({ mode: "agent" }, { templates })).toBe("# Mode: AGENT\n\n---\n\nCHAT RULES");
    expect(composeSystemPrompt({ mode: "chat" }, { templates })).toBe("# Mode: CHAT\n\n---\n\nCHAT RULES");
    expect(composeSystemPrompt({ mode: "run" }, { templates })).toBe("# Mode: RUN\n\n---\n\nRUN RULES");
  });

  test("a precompiled systemPrompt replaces the persona verbatim; a blank one does not", () => {
    const templates = { "base-rules-chat": "" };
    expect(composeSystemPrompt({ mode: "agent", agent: precompiled }, { templates })).toBe(`# Mode: AGENT\n\n---\n\n${precompiled.systemPrompt}`);
    expect(composeSystemPrompt({ mode: "agent", agent: { id: "a", name: "Ada", role: "Reviewer", systemPrompt: " \n " } }, { templates })).toBe(
      "# Mode: AGENT\n\n---\n\n## Agent Persona\n**Name:** Ada\n**Role:** Reviewer",
    );
  });
});

describe("sections", () => {
  test("each section has a stable id and order; empty ones are left out", () => {
    const ids = (input: SystemPromptInput) => composeSystemSections(input).map((section) => [section.id, section.order]);
    expect(ids({ mode: "chat", toolPolicy: { allowedTools: [], customRules: [] } })).toEqual([
      ["mode", -500],
      ["base-rules", -400],
    ]);
    expect(ids({ mode: "run", agent: persona, toolPolicy: agentToolPolicy, runContext: runningRun })).toEqual([
      ["mode", -500],
      ["base-rules", -400],
      ["tool-policy", -300],
      ["persona", -200],
      ["run-directive", -100],
    ]);
  });

  test("key order and object identity do not matter, only values", () => {
    const reordered: SystemPromptInput = {
      runContext: { graph: runningRun.graph!, state: runningRun.state!, currentStep: { instruction: runningRun.currentStep.instruction, name: runningRun.currentStep.name, id: runningRun.currentStep.id }, workflowName: runningRun.workflowName, packageName: runningRun.packageName },
      agent: Object.fromEntries(Object.entries(persona).reverse()) as typeof persona,
      mode: "run",
    };
    expect(composeSystemPrompt(reordered)).toBe(composeSystemPrompt({ mode: "run", agent: persona, runContext: runningRun }));
  });

  test("a run context outside run mode gives no run directive (seed 000)", () => {
    expect(composeSystemPrompt({ mode: "agent", runContext: runningRun })).toBe(composeSystemPrompt({ mode: "agent" }));
  });

  test("the post-completion profile carries no current step, instruction or transitions", () => {
    const prompt = composeSystemPrompt({ mode: "run", runContext: completedRun });
    for (const text of ["Current Step", "Step Instruction", "Write the changelog (changelog)", "Collect the pending changesets", "Available Transitions", "notes written", "(default)"]) {
      expect(prompt).not.toContain(text);
    }
    expect(prompt).toContain("**Workflow Status:** completed");
    expect(prompt).toContain("**Completed Steps:** Check the working tree → Run the tests → Write the changelog → Publish");
  });

  test("a completed run gets its own base rules, with no step to work on; they are overridden by name", () => {
    const templates = { "base-rules-run": "RUN RULES", "base-rules-run-completed": "DONE RULES", "run-directive-protocol-completed": "" };
    const sections = (runContext: SystemPromptInput["runContext"]) =>
      composeSystemSections({ mode: "run", ...(runContext && { runContext }) }, { templates }).find((section) => section.id === "base-rules")?.text;
    expect(sections(completedRun)).toBe("DONE RULES");
    expect(sections(runningRun)).toBe("RUN RULES");
    expect(sections(undefined)).toBe("RUN RULES");
    const prompt = composeSystemPrompt({ mode: "run", runContext: completedRun });
    expect(prompt).not.toMatch(/current step only|later steps|step's instruction/i);
  });

  test("variables and artifacts are shown only when asked for, each on its own", () => {
    const directive = (runDirective?: SystemPromptInput["runDirective"]) =>
      composeSystemSections({ mode: "run", runContext: runWithState, ...(runDirective && { runDirective }) }).find((section) => section.id === "run-directive")?.text;
    const plain = composeSystemSections({ mode: "run", runContext: runningRun }).find((section) => section.id === "run-directive")?.text;
    // Off by default: the layout without them is the one engine state never changed.
    expect(directive()).toBe(plain);
    expect(directive({ variables: false, artifacts: false })).toBe(plain);
    expect(directive({ variables: true })).toContain("### Variables\n- **version:** 1.4.0\n");
    expect(directive({ variables: true })).not.toContain("### Artifacts");
    expect(directive({ artifacts: true })).toContain("### Artifacts\n- test-report.txt\n- dist/release-kit-1.4.0.tgz\n");
    expect(directive({ artifacts: true })).not.toContain("### Variables");
  });

  test("asked-for variables and artifacts that are empty add nothing", () => {
    const runContext = { ...runningRun, state: { ...runningRun.state, variables: {}, artifacts: [] } };
    expect(composeSystemPrompt({ mode: "run", runContext, runDirective: { variables: true, artifacts: true } })).toBe(composeSystemPrompt({ mode: "run", runContext: runningRun }));
  });

  test("a completed run needs no current step", () => {
    const { currentStep: _step, graph: _graph, ...withoutStep } = completedRun;
    expect(composeSystemPrompt({ mode: "run", runContext: withoutStep })).toBe(composeSystemPrompt({ mode: "run", runContext: completedRun }));
  });

  test("overridden templates replace the defaults; trailing whitespace is trimmed", () => {
    const prompt = composeSystemPrompt({ mode: "chat", toolPolicy: { deniedTools: ["shell.exec"] } }, { templates: { "base-rules-chat": "Be kind.\n\n", "tool-policy": "Denied means denied.\n" } });
    expect(prompt).toBe("# Mode: CHAT\n\n---\n\nBe kind.\n\n---\n\n## Tool Policy\nDenied tools: shell.exec\n\nDenied means denied.");
  });
});

describe("validation", () => {
  test("unknown top-level keys are rejected, each named by its path", () => {
    const input = { mode: "chat", tool_policy: { deniedTools: ["shell.exec"] }, agent: { ...persona, communication_style: "terse" } } as never;
    for (const compose of [composeSystemPrompt, composeSystemSections]) {
      expect(() => compose(input)).toThrow(
        expect.objectContaining({ name: "SystemPromptInputError", fields: expect.arrayContaining(["tool_policy", "agent.communication_style"]), message: expect.stringContaining('"tool_policy"') }),
      );
    }
  });

  test("a step instruction must not be blank", () => {
    const runContext = { ...runningRun, currentStep: { ...runningRun.currentStep, instruction: " \n\t" } };
    expect(() => composeSystemPrompt({ mode: "run", runContext })).toThrow(
      expect.objectContaining({ fields: ["runContext.currentStep.instruction"], message: expect.stringContaining("must not be blank") }),
    );
  });

  test("at most one transition is the default", () => {
    const edge = (label: string, isDefault: boolean) => ({ label, targetNodeId: label, isDefault });
    const withEdges = (outgoingEdges: ReturnType<typeof edge>[]) => ({ mode: "run" as const, runContext: { ...runningRun, graph: { outgoingEdges } } });
    expect(() => composeSystemPrompt(withEdges([edge("a", true), edge("b", false), edge("c", true), edge("d", true)]))).toThrow(
      expect.objectContaining({
        fields: ["runContext.graph.outgoingEdges.2.isDefault", "runContext.graph.outgoingEdges.3.isDefault"],
        message: expect.stringContaining("at most one transition may be the default"),
      }),
    );
    expect(() => composeSystemPrompt(withEdges([edge("a", false), edge("b", true)]))).not.toThrow();
    expect(() => composeSystemPrompt(withEdges([edge("a", false), edge("b", false)]))).not.toThrow();
  });
});
