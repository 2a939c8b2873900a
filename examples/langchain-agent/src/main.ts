// `pnpm --filter @ctxpipe-example/langchain-agent start`: runs the agent offline and prints what ctxpipe
// repaired and fitted before each model call.
import { describeRun, runAgent } from "./run-agent.js";

for (const line of describeRun(await runAgent())) console.log(line);
