// One process's part of the example: open the store, make the run loop, continue the run and print
// what happened. Where the run stands comes from its log alone.
import { RunEndedError, RunLoop, type RunResult, scriptedModel } from "@ctxpipe/loop";
import { JsonlStore } from "@ctxpipe/store";
import { incidentReview } from "./incident-review.js";
import { modelFromEnv } from "./model-from-env.js";
import { opsTools } from "./ops-tools.js";
import { scriptedOperator } from "./scripted-operator.js";

export const RUN_ID = "outage-0312";

export interface PhaseOptions {
  /** Kill this process (kill -9) when the metrics tool runs. */
  readonly crash?: boolean;
  /** Make the first model call fail once (the loop retries it). */
  readonly failOnce?: boolean;
  readonly userInput?: string;
}

export async function runPhase(directory: string, phase: PhaseOptions, print: (line: string) => void): Promise<void> {
  const store = new JsonlStore({ directory });
  const control = { failNext: phase.failOnce === true };
  const loop = new RunLoop({
    model: modelFromEnv(scriptedModel([scriptedOperator(control)], { repeatLast: true })),
    store,
    workflow: incidentReview,
    tools: opsTools({ crashInMetrics: phase.crash === true }),
    agent: { id: "oncall", name: "On-call", role: "Site reliability engineer" },
    buildOptions: { maxTokens: 8_000 },
    retryDelayMs: 50,
  });
  const before = await loop.state(RUN_ID);
  const logged = (await store.load(`run-${RUN_ID}`)).messages.length;
  print(`[process ${process.pid}] run ${RUN_ID}: ${logged} messages in the log; ${before.status}${before.currentStep === undefined ? "" : `, on step "${before.currentStep.id}"`}; completed: ${before.stepsCompleted.join(", ") || "none"}`);
  if (phase.userInput !== undefined) print(`> ${phase.userInput}`);
  let result: RunResult;
  try {
    result = await loop.continue({
    runId: RUN_ID,
    ...(phase.userInput === undefined ? {} : { userInput: phase.userInput }),
    onEvent: (event) => {
      // The killed process's call has no result: it is answered before anything new is persisted.
      if (event.type === "call-interrupted") print(`  (the log ends with a call to ${event.call.name} that never returned: ${event.settledBy === "answer" ? "answered as interrupted, not run again" : "run again"})`);
      if (event.type === "model-failed") print(`  model call failed (${event.error.message})${event.willRetry ? ", retrying" : ""}`);
      if (event.type === "replied" && event.reply.text !== "") print(`< ${event.reply.text}`);
      if (event.type === "tool-ran") print(`  [${event.call.name}(${event.call.arguments})] ${event.content.split("\n")[0]}`);
      if (event.type === "persisted" && event.message.partType === "task_completed") print(`  (recorded task_completed: ${String(event.message.content)})`);
    },
  });
  } catch (error) {
    // An ended run that takes no more input (abandoned, or completed and given nothing to answer) says how it ended.
    if (!(error instanceof RunEndedError)) throw error;
    print(`  refused: ${error.message}`);
    await store.close();
    return;
  }
  print(`  → ${result.status}; the run is ${result.state.status}${result.state.currentStep === undefined ? "" : ` on step "${result.state.currentStep.id}"`}`);
  await store.close();
}
