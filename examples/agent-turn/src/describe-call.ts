// src/describe-call.ts
import type { ModelCall } from "./conversation.js";

/** A short account of one model call: the request, what compression did, the cache, the provider's usage. */
export function describeCall({ build, records, usage, toolCalls }: ModelCall): string[] {
  const { report } = build;
  const lines = [
    `request: ${build.tokenCount} tokens (${build.tokenCountExact ? "exact" : "estimated"}) of ${report.budget?.available} available; ` +
      `${build.includedIds.length} stored messages sent, ${build.excludedIds.length} left out`,
  ];

  // One entry per stored message: what happened to it, by which plugin, and the tokens it saved.
  const decisions = new Map<string, { count: number; saved: number }>();
  for (const entry of report.entries) {
    if (entry.decision === "kept") continue;
    const key = `${entry.decision} by ${entry.plugin}`;
    const total = decisions.get(key) ?? { count: 0, saved: 0 };
    decisions.set(key, { count: total.count + 1, saved: total.saved + (entry.tokensSaved ?? 0) });
  }
  for (const [key, { count, saved }] of decisions) lines.push(`${count} ${key} (${saved} tokens saved)`);
  for (const record of records) lines.push(`new summary ${record.id}: ${record.coveredIds.length} messages, persisted`);
  const applied = report.compression?.appliedSummaries ?? [];
  if (applied.length > 0) lines.push(`summaries applied: ${applied.join(", ")}`);

  // Where this request stops matching the previous build's: what the provider's prompt cache can reuse.
  const { cache } = report;
  if (!cache.compared) lines.push("cache: first request of this pipeline, nothing to compare with");
  else if (cache.breaksAt === undefined) lines.push(`cache: starts with the whole previous request (${cache.previousMessages} messages), reusable`);
  else lines.push(`cache: breaks at ${cache.breaksAt}; ${cache.sameMessages} of the previous ${cache.previousMessages} messages still match`);

  lines.push(`provider reported ${usage.input} input tokens (${usage.cached} from its cache), ${usage.output} output`);
  lines.push(toolCalls.length > 0 ? `model asked for ${toolCalls.join(", ")}` : "model answered");
  return lines;
}
