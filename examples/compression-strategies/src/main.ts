// `pnpm --filter @ctxpipe-example/compression-strategies start [config-name]`: builds the same agent
// conversation with each configuration in configs/ (or only the one named) and prints what it did.
import { configNames } from "./load-config.js";
import { MAX_TOKENS, runConfig, TURNS } from "./run-config.js";

const names = process.argv.length > 2 ? process.argv.slice(2) : configNames();

for (const name of names) {
  const run = await runConfig(name);
  const compression = run.build.report.compression!;
  console.log(`\n== ${name}: ${run.config.description}`);
  console.log(`  ${TURNS} turns, ${run.build.metadata.inputCount} items; budget ${MAX_TOKENS}, trigger at ${compression.triggerAt}, target ${compression.targetAt}`);
  console.log(`  estimated tokens: ${compression.usageBefore} before, ${compression.usageAfter} after (goal: save ${compression.goal}); request sent: ${run.build.tokenCount} tokens`);
  for (const strategy of run.strategies) {
    console.log(`  ${strategy.name}: ${strategy.ran ? `ran, ${strategy.itemsAffected} items, saved ${strategy.tokensSaved} tokens` : "not needed"}`);
  }
  for (const [plugin, counts] of Object.entries(run.decisions)) {
    console.log(`  decisions by ${plugin}: ${Object.entries(counts).map(([decision, count]) => `${count} ${decision}`).join(", ")}`);
  }
  for (const record of run.records) {
    console.log(`  record ${record.id}: covers ${record.coveredIds.length} messages from "${record.startId}" (${record.sourceTokenCount} tokens) in ${record.summary.length} characters`);
  }
  // Where each break happened: messages of the previous request still at the start of this one.
  const breaks = run.turns
    .filter((turn) => turn.cache.compared && turn.cache.breaksAt !== undefined)
    .map((turn) => `${turn.turn} (${turn.cache.sameMessages}/${turn.cache.previousMessages} kept)`);
  const largest = Math.max(...run.turns.map((turn) => turn.tokenCount));
  console.log(`  over ${TURNS} turns on one pipeline: the cached prefix broke on ${run.cacheBreaks} turns (${breaks.join(", ") || "none"}); largest request ${largest} tokens; summarizer calls: ${run.summarizerCalls}`);
}
