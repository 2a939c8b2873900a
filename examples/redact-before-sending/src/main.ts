// Prints the request that would be sent to OpenAI and what the plugin redacted, item by item.
import { buildRedactedContext } from "./build-redacted-context.js";

const result = await buildRedactedContext();

console.log("OpenAI request:");
console.log(JSON.stringify(result.request, null, 2));
console.log("\nRedacted items:");
for (const entry of result.report.entries) {
  if (entry.decision === "repaired") console.log(`  ${entry.id} (${entry.type}): ${entry.reason}`);
}
