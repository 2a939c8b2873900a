// Builds one short stored conversation four times with the same pipeline: in chat mode, in agent
// mode with an agent and its tool policy, in run mode at a workflow step, and in run mode once the
// workflow completed. The host app's own records are mapped onto ctxpipe's input types here.
import { type BuildResult, createPipeline, importStoredMessages, type OpenAIChatRequest } from "@ctxpipe/core";
import { type AgentInfo, type RunContext, systemPromptPlugins, type ToolPolicyConfig } from "@ctxpipe/system-prompt";

/** The conversation as the app stored it (the stored message shape: OpenAI-like, with an id and a date). */
const storedMessages = [
  { id: "m1", role: "user", content: "Can we cut the 1.4.0 release today?", createdAt: "2026-03-02T09:00:00.000Z" },
  { id: "m2", role: "assistant", content: "Yes: the tests pass and four changesets are pending.", createdAt: "2026-03-02T09:00:04.000Z" },
  { id: "m3", role: "user", content: "Go ahead.", createdAt: "2026-03-02T09:00:09.000Z" },
];

/** The app's agent record, in its own shape. */
const agentRecord = {
  id: "release-manager",
  metadata: { name: "Rhea" },
  persona: {
    role: "Release manager",
    identity: "Ships versioned packages for a TypeScript monorepo.",
    communication_style: "Short, numbered steps.",
    principles: ["Never publish from a dirty working tree.", "Ask before anything irreversible."],
  },
  tools: { allow: ["fs", "project"], deny: ["shell.exec"] },
};

const agent: AgentInfo = {
  id: agentRecord.id,
  name: agentRecord.metadata.name,
  role: agentRecord.persona.role,
  identity: agentRecord.persona.identity,
  communicationStyle: agentRecord.persona.communication_style,
  principles: agentRecord.persona.principles,
};

const toolPolicy: ToolPolicyConfig = { allowedCategories: agentRecord.tools.allow, deniedTools: agentRecord.tools.deny };

/** Set once for the whole app: every agent gets it, merged with its own policy. */
const systemToolPolicy: ToolPolicyConfig = { deniedCategories: ["network"], customRules: ["Write only inside the project root."] };

const runAtChangelog: RunContext = {
  packageName: "release-kit",
  workflowName: "ship-a-release",
  currentStep: { id: "changelog", name: "Write the changelog", instruction: "Collect the pending changesets and write the release notes to CHANGELOG.md." },
  state: { stepsCompleted: ["Check the working tree", "Run the tests"] },
  graph: {
    outgoingEdges: [
      { label: "notes written", targetNodeId: "publish", isDefault: true },
      { label: "changesets missing", targetNodeId: "collect-changesets" },
    ],
  },
};

const runCompleted: RunContext = {
  packageName: "release-kit",
  workflowName: "ship-a-release",
  status: "completed",
  state: { stepsCompleted: ["Check the working tree", "Run the tests", "Write the changelog", "Publish"] },
};

export type ModeName = "chat" | "agent" | "run" | "run (completed)";

export async function buildModePrompts(): Promise<Map<ModeName, BuildResult<OpenAIChatRequest>>> {
  // systemPromptPlugins() replaces core's InsertSystemPlugin with one that joins sections with `---`.
  const pipeline = createPipeline({ plugins: systemPromptPlugins({ systemToolPolicy }) });
  const items = importStoredMessages(storedMessages);
  return new Map<ModeName, BuildResult<OpenAIChatRequest>>([
    ["chat", await pipeline.build(items, { mode: "chat" })],
    ["agent", await pipeline.build(items, { mode: "agent", agent, toolPolicy })],
    ["run", await pipeline.build(items, { mode: "run", agent, toolPolicy, runContext: runAtChangelog })],
    ["run (completed)", await pipeline.build(items, { mode: "run", agent, toolPolicy, runContext: runCompleted })],
  ]);
}
