// Inputs shared by the golden and pipeline tests: an agent with a full persona, one with a
// precompiled prompt, two tool policy levels, and a run context running and completed.
import type { AgentInfo, CompletedRunContext, ActiveRunContext, ToolPolicyConfig } from "../index.js";

export const persona: AgentInfo = {
  id: "release-manager",
  name: "Rhea",
  role: "Release manager",
  identity: "Ships versioned packages for a TypeScript monorepo and keeps the changelog honest.",
  communicationStyle: "Short, numbered steps; states risks first.",
  principles: ["Never publish from a dirty working tree.", "Every change has a changeset.", "Ask before anything irreversible."],
};

export const precompiled: AgentInfo = {
  id: "release-manager",
  name: "Rhea",
  role: "Release manager",
  identity: "Not shown: the precompiled prompt replaces the persona.",
  systemPrompt: "You are Rhea, the release manager.\nYou ship versioned packages and keep the changelog honest.",
};

export const systemToolPolicy: ToolPolicyConfig = {
  allowedCategories: ["fs", "project"],
  deniedTools: ["shell.exec"],
  customRules: ["Write only inside the project root."],
};

export const agentToolPolicy: ToolPolicyConfig = {
  allowedCategories: ["ui", "fs"],
  deniedCategories: ["network"],
  allowedTools: ["fs.read", "fs.apply_patch", "shell.exec"],
  customRules: ["Confirm with the user before publishing.", "Write only inside the project root."],
};

export const runningRun: ActiveRunContext = {
  packageName: "release-kit",
  workflowName: "ship-a-release",
  currentStep: {
    id: "changelog",
    name: "Write the changelog",
    instruction: "Collect the pending changesets and write the release notes to CHANGELOG.md.\nGroup them by package.",
  },
  state: { variables: { version: "1.4.0" }, stepsCompleted: ["Check the working tree", "Run the tests"], artifacts: ["test-report.txt"] },
  graph: {
    outgoingEdges: [
      { label: "notes written", targetNodeId: "publish", isDefault: true },
      { label: "changesets missing", targetNodeId: "collect-changesets" },
    ],
  },
};

export const firstStepRun: ActiveRunContext = {
  packageName: "release-kit",
  workflowName: "ship-a-release",
  status: "running",
  currentStep: { id: "check-tree", name: "Check the working tree", instruction: "Make sure the working tree is clean." },
};

/** Completed, with the engine's last step and edges still in it: none of them may reach the prompt. */
export const completedRun: CompletedRunContext = {
  ...runningRun,
  status: "completed",
  state: { stepsCompleted: ["Check the working tree", "Run the tests", "Write the changelog", "Publish"] },
};

/** runningRun with more engine state: variables of each kind and two artifacts. */
export const runWithState: ActiveRunContext = {
  ...runningRun,
  state: {
    ...runningRun.state,
    variables: { version: "1.4.0", packages: 3, dryRun: false, owners: { core: "Rhea" }, notes: "first line\nsecond line", skipped: undefined },
    artifacts: ["test-report.txt", "dist/release-kit-1.4.0.tgz"],
  },
};
