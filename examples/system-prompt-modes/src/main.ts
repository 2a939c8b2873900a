// Prints the system prompt of each mode and what each of its sections costs.
import { buildModePrompts } from "./build-mode-prompts.js";

for (const [mode, result] of await buildModePrompts()) {
  console.log(`\n=== ${mode}: ${result.metadata.systemPromptLength} characters ===\n`);
  console.log(result.request.messages[0]?.content);
  console.log(`\n--- sections (${result.tokenCountExact ? "exact" : "estimated"} tokens) ---`);
  for (const part of result.report.systemParts) console.log(`  ${part.id.padEnd(14)} order ${String(part.order).padStart(4)}  ${String(part.tokens).padStart(4)} tokens`);
}
