// Prints the transcript, then what it costs and what happened to each stored chunk.
import { buildTranscript } from "./build-transcript.js";

const result = await buildTranscript();

console.log(result.request.markdown);
console.log(`${result.tokenCount} tokens (${result.tokenCountExact ? "exact" : "estimated"}), ${result.metadata.outputCount} sections`);
for (const entry of result.report.entries) console.log(`  ${entry.id} (${entry.type}): ${entry.decision}, ${entry.reason}`);
