import { expect, test } from "vitest";
import { buildModePrompts } from "./build-mode-prompts.js";

test("each mode sends its own composed prompt first, with the sections it needs", async () => {
  const results = await buildModePrompts();
  const sections = Object.fromEntries([...results].map(([mode, result]) => [mode, result.report.systemParts.map((part) => part.id)]));
  expect(sections).toEqual({
    chat: ["mode", "base-rules", "tool-policy"],
    agent: ["mode", "base-rules", "tool-policy", "persona"],
    run: ["mode", "base-rules", "tool-policy", "persona", "run-directive"],
    "run (completed)": ["mode", "base-rules", "tool-policy", "persona", "run-directive"],
  });
  for (const [mode, result] of results) {
    const system = result.request.messages[0];
    expect(system?.role).toBe("system");
    expect(system?.content).toMatch(new RegExp(`^# Mode: ${mode.split(" ")[0]!.toUpperCase()}\n\n---\n\n`));
    expect(result.metadata).toMatchObject({ systemPromptIncluded: true, systemPromptLength: String(system?.content).length });
    expect(result.request.messages.slice(1).map((message) => message.role)).toEqual(["user", "assistant", "user"]);
  }
  expect(results.get("run")?.request.messages[0]?.content).toContain("**Current Step:** Write the changelog (changelog)\n\n### Step Instruction\n");
  const completed = String(results.get("run (completed)")?.request.messages[0]?.content);
  expect(completed).toContain("**Workflow Status:** completed");
  expect(completed).not.toMatch(/Current Step|Step Instruction|Available Transitions/);
  // The agent's allow list and the app-wide deny list merge into one policy.
  expect(results.get("agent")?.request.messages[0]?.content).toContain("## Tool Policy\nAllowed categories: fs, project\nDenied categories: network\nDenied tools: shell.exec\n");
});
