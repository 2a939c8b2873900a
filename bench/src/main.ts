// `pnpm bench`: prints medians and ratios measured side by side in this one process.
import { agentLoopBenchmark } from "./agent-loop-benchmark.js";
import { providerValidBenchmark } from "./provider-valid-benchmark.js";

const format = (milliseconds: number) => `${milliseconds.toFixed(2)} ms`;

console.log("ctxpipe core: agent loop, default pipeline (chars/4 estimate), OpenAI renderer");
console.log("messages  size      cold build   turn (reused)  turn (from scratch)  scratch ÷ reused");
for (const size of [1_000, 10_000]) {
  const figures = await agentLoopBenchmark(size, 30);
  console.log(
    `${String(figures.messages).padEnd(9)} ${`${figures.megabytes.toFixed(1)} MB`.padEnd(9)} ${format(figures.coldBuildMs).padEnd(12)} ${format(figures.incrementalTurnMs).padEnd(14)} ${format(figures.fromScratchTurnMs).padEnd(20)} ${(figures.fromScratchTurnMs / figures.incrementalTurnMs).toFixed(1)}×`,
  );
}

console.log("\nprovider-valid: adversarial conversations built for openai, anthropic and gemini and checked against each provider's rules");
const valid = await providerValidBenchmark(3_000);
console.log(
  `${valid.conversations} conversations (${valid.items} items): ${Math.round(valid.perSecond)} conversations/s checked on all three providers, ${valid.problems} problems found`,
);
