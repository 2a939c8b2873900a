// `pnpm --filter @ctxpipe-example/agent-turn start`: two agent turns with each SDK against the local
// provider server, and what ctxpipe's report says about every model call.
import { OPENAI_MODEL } from "./openai-turn.js";
import { CLAUDE_MODEL } from "./anthropic-turn.js";
import { describeCall } from "./describe-call.js";
import { CONTEXT_LIMIT, EARLIER_TURNS, runExample, USER_MESSAGES } from "./run-example.js";

const { runs, server } = await runExample();
for (const run of runs) {
  console.log(`\n== ${run.provider} (${run.provider === "openai" ? OPENAI_MODEL : CLAUDE_MODEL}): ${EARLIER_TURNS} earlier turns in the store, at most ${CONTEXT_LIMIT} tokens of context`);
  run.turns.forEach((turn, index) => {
    console.log(`\n> ${USER_MESSAGES[index]}`);
    turn.calls.forEach((call, number) => {
      console.log(`  model call ${number + 1}`);
      for (const line of describeCall(call)) console.log(`    ${line}`);
    });
    console.log(`< ${turn.answer}`);
  });
}
const summaries = server.received.filter((request) => request.kind === "summary").length;
console.log(`\nThe local server received ${server.received.length} requests (${summaries} to summarize) and refused ${server.problems.length}.`);
if (server.problems.length > 0) process.exitCode = 1;
