// @ctxpipe/compression: swappable compression strategies on the compress stage.
import "./build-options.js";

export type { CompressionBuildOptions } from "./build-options.js";
export {
  COMPRESSION_NOTICE_ID,
  type CompressionNoticeOption,
  type CompressionNoticeSummary,
  compressionNoticeText,
  type NoticeCount,
} from "./compression-notice.js";
export { CompressionPlugin, type CompressionPluginOptions } from "./compression-plugin.js";
export type { CompressionReport, ItemSaving, SkippedSummary, StrategyReport, SummarizerOutcome, SummarizerReport } from "./compression-report.js";
export type { CompressionSettings, CompressionSettingsInput } from "./compression-settings.js";
export type { CompressionContext, CompressionStrategy } from "./compression-strategy.js";
export { DEFAULT_STRATEGIES } from "./default-strategies.js";
export type { MessageShape } from "./message-shape.js";
export { type ClearToolResultsSettings, clearToolResults } from "./strategies/clear-tool-results.js";
export { frozenReplacement } from "./strategies/frozen-replacement.js";
export { type PrioritySettings, priority } from "./strategies/priority.js";
export { type SlidingWindowSettings, slidingWindow } from "./strategies/sliding-window.js";
export { type SummarizeSettings, summarize } from "./strategies/summarize.js";
export { DEFAULT_MAX_TOKENS_PER_RESULT, type TruncateToolResultsSettings, truncateToolResults, truncationCaps } from "./strategies/truncate-tool-results.js";
export { STRATEGY_NAMES, type StrategyInput, type StrategyName, type StrategySettings } from "./strategy-input.js";
export { fingerprintOf } from "./summaries/fingerprint.js";
export { type Summarizer, type SummarizerRequest, summaryPrompt, transcriptOf } from "./summaries/summarizer.js";
export { SUMMARIZER_FAILED, SummarizerError } from "./summaries/summarizer-error.js";
export { type CompressedSummaryEntity, type SummaryRecord, type SummaryRecordInput, summaryRecordSchema } from "./summaries/summary-record.js";
export {
  type CompressedMessage,
  type CompressionInput,
  type CompressionOutcome,
  CompressionPipeline,
  type CompressionPipelineOptions,
  type CompressionUsage,
  type CompressOptions,
  type HistoricalCompressionOutcome,
} from "./compression-pipeline.js";
