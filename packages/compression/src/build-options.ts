// The per-build inputs CompressionPlugin reads, added to core's BuildOptions by declaration merging.
import type { CompressionReport } from "./compression-report.js";
import type { SummaryRecordInput } from "./summaries/summary-record.js";

export interface CompressionBuildOptions {
  /** Overrides the plugin's tokenBudget for this build. */
  readonly tokenBudget?: number;
  readonly triggerThreshold?: number;
  readonly targetUsage?: number;
  readonly minRecentMessages?: number;
  /**
   * The first item of the current loop (where chat mode's tool loop started): it and everything after it are left
   * alone. Default: the newest turn opened by a user message.
   */
  readonly loopStartId?: string;
}

declare module "@ctxpipe/core" {
  interface BuildOptions {
    /**
     * Persisted summary records to apply before anything else (the summary apply step): ctxpipe's
     * records, or a message builder's `{ summary, messageIds, startMessageId }`.
     */
    summaries?: ReadonlyArray<SummaryRecordInput>;
    /** Per-build compression settings, or false to run no strategy (summaries are still applied). */
    compression?: CompressionBuildOptions | false;
  }
  interface ReportAttachments {
    /** What compression did in this build (CompressionPlugin). */
    compression: CompressionReport;
  }
}
