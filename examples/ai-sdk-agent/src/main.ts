// `pnpm --filter @ctxpipe-example/ai-sdk-agent start`: runs the agent on the broken stored chat and
// prints, per step, the tokens sent against the budget and what ctxpipe repaired.
import { runAgent } from "./run-agent.js";

const run = await runAgent();
for (const step of run.steps) {
  console.log(`step ${step.step}: ${step.tokenCount} of ${step.inputBudget} tokens, ${step.messagesSent} messages sent; to fit: ${step.cleared} old tool results cleared, ${step.leftOut} old messages left out`);
  for (const repair of step.repairs) console.log(`  ${repair}`);
}
console.log(`\nanswer: ${run.text}`);
