// `pnpm --filter @ctxpipe-example/three-providers start`: prints what was repaired and the three requests.
import { crashedRun } from "./crashed-run.js";
import { renderForEveryProvider, repairsOf } from "./render-for-every-provider.js";

const { openai, anthropic, gemini } = await renderForEveryProvider(crashedRun());

console.log("What the pipeline repaired (the same for every provider):");
for (const line of repairsOf(openai.report.entries)) console.log(`  ${line}`);
for (const entry of openai.report.synthesized) console.log(`  ${entry.id}: synthesized: ${entry.reason}`);

for (const [name, result] of Object.entries({ openai, anthropic, gemini })) {
  console.log(`\n${name} request (${result.tokenCount} tokens, ${result.report.violations.length} rule violations):`);
  console.log(JSON.stringify(result.request, null, 2));
}
