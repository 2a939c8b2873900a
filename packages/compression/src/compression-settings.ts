// The compression settings (trigger/target): compress once the request uses more than triggerThreshold of the
// budget, and then down to targetUsage of it (hysteresis), never touching the newest
// minRecentMessages messages or the current loop.
import { z } from "zod";

export const compressionSettingsSchema = z.strictObject({
  /**
   * Tokens the request may use. Default: the build's budget (maxTokens minus reserveOutputTokens);
   * without either, strategies do nothing (persisted summaries are still applied).
   */
  tokenBudget: z.number().int().positive().optional(),
  /** Compress once the estimated request exceeds this fraction of the budget. Default 0.8. */
  triggerThreshold: z.number().gt(0).max(1).default(0.8),
  /** ...and then down to this fraction of it. Default 0.5. */
  targetUsage: z.number().gt(0).max(1).default(0.5),
  /** The newest messages no strategy touches. Default 10. */
  minRecentMessages: z.number().int().nonnegative().default(10),
});

export type CompressionSettingsInput = z.input<typeof compressionSettingsSchema>;
export type CompressionSettings = z.output<typeof compressionSettingsSchema>;

export function checkThresholds(settings: CompressionSettings, ctx: z.RefinementCtx): void {
  if (settings.targetUsage > settings.triggerThreshold) {
    ctx.addIssue({ code: "custom", path: ["targetUsage"], message: "must not be above triggerThreshold (compression aims below the point that triggers it)" });
  }
}
