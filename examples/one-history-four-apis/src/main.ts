// `pnpm --filter @ctxpipe-example/one-history-four-apis start`: builds one stored conversation for four
// APIs and prints what each request carries.
import { buildForFourApis } from "./build-for-four-apis.js";

const built = await buildForFourApis();

for (const [api, result] of Object.entries(built)) {
  const cache = result.report.cache;
  console.log(`\n${api}: ${result.tokenCount} tokens, ${result.report.violations.length} rule violations`);
  for (const entry of result.report.entries.filter((candidate) => candidate.decision !== "kept")) console.log(`  ${entry.id}: ${entry.decision}: ${entry.reason}`);
  for (const point of cache.breakpoints ?? []) {
    const where = point.part === "messages" ? `message ${point.messageIndex}` : point.part;
    console.log(`  cache breakpoint after ${where} (${point.prefixTokens} tokens): ${point.placed ? "placed" : `not placed, ${point.reason}`}`);
  }
  const key = (result.request as { prompt_cache_key?: string }).prompt_cache_key;
  if (key !== undefined) console.log(`  prompt_cache_key: ${key}`);
}

// Long texts (the deploy log) shortened for the screen; the request itself carries them whole.
const shortened = (_key: string, value: unknown) => (typeof value === "string" && value.length > 160 ? `${value.slice(0, 120)}… (${value.length} characters)` : value);
console.log("\nThe Responses API request:");
console.log(JSON.stringify(built.responses.request, shortened, 2));
