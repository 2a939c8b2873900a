// Prints the request ctxpipe builds from the bundled conversation, then what happened to each item.
import { buildExampleContext } from "./build-example-context.js";

const result = await buildExampleContext();

console.log("Request sent to OpenAI:");
console.log(JSON.stringify(result.request, null, 2));
console.log(`\n${result.tokenCount} tokens (${result.tokenCountExact ? "exact" : "estimated"}), budget ${result.report.budget?.available ?? "none"}`);
console.log(`\nWhat happened to each stored message:`);
for (const entry of result.report.entries) {
  console.log(`  ${entry.id.padEnd(4)} ${entry.type.padEnd(12)} ${entry.decision.padEnd(9)} ${`${entry.stage}/${entry.plugin}`.padEnd(32)} ${entry.reason}`);
}
for (const entry of result.report.synthesized) {
  console.log(`  +    ${entry.type.padEnd(12)} ${entry.decision.padEnd(9)} ${`${entry.stage}/${entry.plugin}`.padEnd(32)} ${entry.reason}`);
}
