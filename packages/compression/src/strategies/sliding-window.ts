// Sliding window: drops the oldest whole turn groups until the goal is met. Stops at the first
// protected group (the current loop, the newest messages), so what it keeps is always one unbroken
// stretch of the newest turns. Summaries at the front stay: they are what is left of older turns.
import { z } from "zod";
import type { CompressionContext, CompressionStrategy } from "../compression-strategy.js";
import type { Item, Items } from "@ctxpipe/core";

export const slidingWindowSettingsSchema = z.strictObject({
  type: z.literal("sliding-window"),
  /** Names the strategy in the report. Default "sliding-window". */
  name: z.string().min(1).default("sliding-window"),
});

export type SlidingWindowSettings = z.input<typeof slidingWindowSettingsSchema>;

export function slidingWindow(settings: Omit<SlidingWindowSettings, "type"> = {}): CompressionStrategy {
  const { name } = slidingWindowSettingsSchema.parse({ ...settings, type: "sliding-window" });
  return {
    name,
    compress(items: Items, context: CompressionContext): Items | undefined {
      const dropped = new Set<string>();
      let saved = 0;
      for (const group of context.turns.groups) {
        if (saved >= context.remaining || context.isProtectedGroup(group.index)) break;
        const members = group.itemIds.map((id) => context.itemById(id)!);
        if (members.every((item) => item.type === "summary" || item.type === "system")) continue;
        for (const item of members) {
          if (item.type === "summary" || item.type === "system") continue;
          dropped.add(item.id);
          saved += context.estimate(item);
        }
      }
      if (dropped.size === 0) return undefined;
      const reason = `the oldest turns went to bring the request from ${context.usage} toward ${Math.round(context.target)} tokens`;
      const kept: Item[] = [];
      for (const item of items) {
        if (dropped.has(item.id)) context.build.report.drop(item, reason);
        else kept.push(item);
      }
      return kept;
    },
  };
}
