// `pnpm --filter @ctxpipe-example/run-mode start:engine [directory]`: a run driven by a workflow engine of
// the example's own (src/hotfix-machine.ts). RunLoop asks it where the run stands at the start of every
// turn; tools and the user's approval move it; its variables and artifacts are shown in the directive.
// The run completes visibly (a task_completed record); a follow-up question is answered with the
// post-completion prompt, which leaves the completed run as it is.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OpenAIChatRequest } from "@ctxpipe/core";
import { RunEndedError, RunLoop, scriptedModel } from "@ctxpipe/loop";
import { JsonlStore } from "@ctxpipe/store";
import { HotfixMachine } from "./hotfix-machine.js";
import { hotfixOperator } from "./hotfix-operator.js";
import { hotfixTools } from "./hotfix-tools.js";
import { modelFromEnv } from "./model-from-env.js";

export const HOTFIX_RUN_ID = "hotfix-481";

const directory = process.argv[2] ?? mkdtempSync(join(tmpdir(), "ctxpipe-run-engine-"));
const store = new JsonlStore({ directory });
const machine = new HotfixMachine(join(directory, "hotfix-engine.json"), "BUG-481");

const loop = new RunLoop({
  model: modelFromEnv(scriptedModel([hotfixOperator()], { repeatLast: true })),
  store,
  engine: (input) => {
    const turn = machine.turn(input);
    const { state } = machine.current;
    console.log(`  [engine] turn ${input.turn}: ${state}${turn.tools === undefined ? "" : `; tools for this step: ${turn.tools.join(", ") || "none"}`}${turn.agent === undefined ? "" : `; agent ${turn.agent.id}`}`);
    return turn;
  },
  tools: hotfixTools(machine),
  agent: { id: "fixer", name: "Fixer", role: "On-call engineer" },
  buildOptions: { maxTokens: 8_000, runDirective: { variables: true, artifacts: true } },
});

console.log(`Run log and engine state: ${directory}`);
for (const userInput of ["Fix BUG-481.", "Looks good, I approve.", "Also bump the version?"]) {
  console.log(`\n> ${userInput}`);
  try {
    const result = await loop.continue({
      runId: HOTFIX_RUN_ID,
      userInput,
      onEvent: (event) => {
        if (event.type === "built") {
          const offered = (event.result.request as OpenAIChatRequest).tools?.map((tool) => tool.function.name) ?? [];
          console.log(`  offered: ${offered.join(", ") || "no tools"}`);
        }
        if (event.type === "replied" && event.reply.text !== "") console.log(`< ${event.reply.text}`);
        if (event.type === "tool-ran") console.log(`  [${event.call.name}] ${event.content}`);
        if (event.type === "persisted" && event.message.partType === "task_completed") console.log(`  (recorded task_completed: ${String(event.message.content)})`);
      },
    });
    console.log(`  → ${result.status}; the run is ${result.state.status}`);
  } catch (error) {
    if (!(error instanceof RunEndedError)) throw error;
    console.log(`  refused: ${error.message}`);
  }
}
await store.close();
