// What `ctxpipe inspect` shows, computed once from a build and drawn twice: as a terminal table and as
// an HTML page. Plain data (JSON-serialisable), so the page can embed it as it is.
import type { CacheReport, Decision, ReportEvent } from "@ctxpipe/core";

/** Where a token of the budget goes. The segments add up to `maxTokens`. */
export type BudgetSegmentKind =
  | "system"
  | "user"
  | "assistant"
  | "tool-results"
  | "summaries"
  | "other"
  | "overhead"
  | "reserved-output"
  | "free";

export interface BudgetSegment {
  readonly kind: BudgetSegmentKind;
  readonly label: string;
  readonly tokens: number;
  /** Items whose content is in the segment (0 for overhead, reserved output and free). */
  readonly items: number;
}

export interface InspectionBudget {
  /** The whole request's budget as the build saw it (prompt + answer): the whole bar. */
  readonly maxTokens: number;
  readonly reserveOutputTokens: number;
  /** maxTokens minus reserveOutputTokens. */
  readonly available: number;
  /**
   * Where maxTokens and the reserve came from, e.g. "128,000-token window of gpt-4o − 16,384 reserved
   * for the answer (the output limit of gpt-4o)", or "2,000 budget − 500 reserved for the answer" for the flags.
   */
  readonly origin: string;
  /** Tokens of the rendered request. */
  readonly used: number;
  /** In bar order: system, history by kind, overhead, reserved output, free. */
  readonly segments: ReadonlyArray<BudgetSegment>;
}

/** One row of the timeline: an input item, or an item a plugin synthesized (inputIndex undefined). */
export interface TimelineRow {
  readonly id: string;
  readonly inputIndex: number | undefined;
  /** Where the input item came from, e.g. "line 12" or "index 3"; undefined for synthesized items. */
  readonly location: string | undefined;
  readonly type: string;
  readonly role: string;
  readonly decision: Decision;
  readonly stage: string;
  readonly plugin: string;
  readonly reason: string;
  readonly relatedId: string | undefined;
  readonly tokens: number;
  readonly tokensSaved: number | undefined;
  /**
   * Who saved tokensSaved, in the order they acted: one entry, the decision's plugin, unless several
   * took part (a result one strategy cleared and another dropped: the clearing is credited with what
   * the placeholder took out, the drop with the placeholder). Empty when nothing was saved.
   */
  readonly savedBy: ReadonlyArray<SavedBy>;
  readonly messageIndex: number | undefined;
  /** The item's text as stored, shortened to PREVIEW_LENGTH characters. */
  readonly preview: string;
  readonly history: ReadonlyArray<ReportEvent>;
}

export interface SavedBy {
  /** A compression strategy's name, or the plugin of a decision (FitBudget, apply-summaries …). */
  readonly plugin: string;
  readonly tokens: number;
}

/** Tokens saved per plugin, from the timeline's rows: each is credited with its own work only. */
export interface InspectionSavings {
  /** The sum of byPlugin: the rows' saved tokens less what the summaries sent in their place cost. */
  readonly total: number;
  /** The compression strategies in chain order, then the others as they come; a summarizing plugin's figure has the summary's cost taken off. */
  readonly byPlugin: ReadonlyArray<{ readonly plugin: string; readonly items: number; readonly tokens: number }>;
}

export interface SummaryView {
  readonly id: string;
  /** "input": a summary message of the conversation; "record": a persisted summary record applied; "new": made in this build. */
  readonly source: "input" | "record" | "new";
  readonly text: string;
  readonly tokens: number;
  /** Whether it was sent: false when the budget dropped it or it was skipped. */
  readonly sent: boolean;
  /** The ids it stands in for, in input order. */
  readonly coveredIds: ReadonlyArray<string>;
  /** Tokens the covered messages would have cost. */
  readonly coveredTokens: number;
  /** For a summary that was not sent: what became of it (rolled into a newer summary, skipped and why). */
  readonly note: string | undefined;
}

export interface InspectionCache extends CacheReport {
  /** Why nothing was compared, when nothing was: e.g. the conversation has a single turn. */
  readonly note: string | undefined;
}

export interface Inspection {
  /** What was inspected, e.g. the file name. */
  readonly title: string;
  readonly provider: string;
  readonly model: string;
  readonly tokenizer: { readonly name: string; readonly exact: boolean };
  readonly tokenCount: number;
  readonly tokenCountExact: boolean;
  readonly budget: InspectionBudget;
  /** Input items per final decision (every decision present, 0 when none). */
  readonly decisions: Readonly<Record<Decision, number>>;
  readonly inputCount: number;
  readonly outputCount: number;
  readonly timeline: ReadonlyArray<TimelineRow>;
  readonly summaries: ReadonlyArray<SummaryView>;
  readonly systemParts: ReadonlyArray<{ readonly id: string; readonly addedBy: string; readonly tokens: number }>;
  /** The provider request exactly as `ctxpipe build` prints it. */
  readonly request: unknown;
  readonly cache: InspectionCache;
  /** What compression did, when a compression plugin ran. */
  readonly compression:
    | {
        readonly triggered: boolean;
        readonly usageBefore: number;
        readonly usageAfter: number;
        readonly strategies: ReadonlyArray<{ readonly name: string; readonly ran: boolean; readonly itemsAffected: number; readonly tokensSaved: number }>;
      }
    | undefined;
  /** Who saved what; the compression strategies' figures are theirs in `compression` too. */
  readonly savings: InspectionSavings;
  readonly warnings: ReadonlyArray<string>;
  readonly violations: ReadonlyArray<string>;
}

export const PREVIEW_LENGTH = 240;
