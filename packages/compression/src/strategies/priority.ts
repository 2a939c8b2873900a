// Priority: drops whole turn groups, lowest priority first and, among equals, oldest first. A group's
// priority is its highest item's (metadata.priority, default 0, or priorityOf), so one important
// message keeps its turn. Relevance over cache: dropping from the middle moves the request's prefix.
import type { Item, Items } from "@ctxpipe/core";
import { z } from "zod";
import type { CompressionContext, CompressionStrategy } from "../compression-strategy.js";

export const prioritySettingsSchema = z.strictObject({
  type: z.literal("priority"),
  name: z.string().min(1).default("priority"),
  /** An item's priority; default its metadata.priority, or 0. Higher is kept longer. */
  priorityOf: z.custom<(item: Item) => number>((value) => typeof value === "function", "a function (item) => number").optional(),
});

export type PrioritySettings = z.input<typeof prioritySettingsSchema>;

export function priority(settings: Omit<PrioritySettings, "type"> = {}): CompressionStrategy {
  const options = prioritySettingsSchema.parse({ ...settings, type: "priority" });
  const priorityOf = options.priorityOf ?? ((item: Item) => item.metadata.priority ?? 0);
  return {
    name: options.name,
    compress(items: Items, context: CompressionContext): Items | undefined {
      const candidates: Array<{ index: number; priority: number; members: Item[] }> = [];
      for (const group of context.turns.groups) {
        if (context.isProtectedGroup(group.index)) continue;
        const members = group.itemIds.map((id) => context.itemById(id)!).filter((item) => item.type !== "summary" && item.type !== "system");
        if (members.length === 0) continue;
        let highest = Number.NEGATIVE_INFINITY;
        for (const item of members) {
          const value = priorityOf(item);
          if (!Number.isFinite(value)) throw new TypeError(`priorityOf returned ${value} for item "${item.id}"; it must return a finite number`);
          highest = Math.max(highest, value);
        }
        candidates.push({ index: group.index, priority: highest, members });
      }
      candidates.sort((left, right) => left.priority - right.priority || left.index - right.index);
      const dropped = new Map<string, number>();
      let saved = 0;
      for (const candidate of candidates) {
        if (saved >= context.remaining) break;
        for (const item of candidate.members) {
          dropped.set(item.id, candidate.priority);
          saved += context.estimate(item);
        }
      }
      if (dropped.size === 0) return undefined;
      const kept: Item[] = [];
      for (const item of items) {
        const groupPriority = dropped.get(item.id);
        if (groupPriority === undefined) kept.push(item);
        else context.build.report.drop(item, `lowest priority first: its turn has priority ${groupPriority}`);
      }
      return kept;
    },
  };
}
