// What every tap receives next to the items: the build's options, tokenizer, turn groups, the system
// prompt parts and the decision recorder. One context object lives for one build.
import type { ValidationIssue } from "../errors/context-validation-error.js";
import type { Item } from "../model/item.js";
import type { RuleLevel } from "../spec/rule.js";
import type { TurnGroups } from "../model/turn-groups.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import type { TextCut } from "../text/text-cut.js";
import type { ToolDefinition } from "../spec/tool-definition.js";
import type { BuildOptions } from "./build-options.js";
import type { CacheBreakpoint, ReportAttachments } from "./build-report.js";
import type { StageLabel } from "./stage.js";

export interface Budget {
  /** The build's maxTokens, or, given reserveOutputTokens alone, the model's context window. */
  readonly maxTokens: number;
  readonly reserveOutputTokens: number;
  /** What the rendered request may use: maxTokens minus reserveOutputTokens. */
  readonly available: number;
  /**
   * 0 on the first attempt. When a rendered request came out over the budget, the build runs again
   * from the compress stage with the tokens it was over added here: compress plugins aim for
   * `available - shortfall`, so their estimates need not be exact.
   */
  readonly shortfall: number;
  /** On a second or later attempt, the rendered count of the attempt before (what the estimates missed shows in it). */
  readonly previousTokenCount?: number;
}

export interface SystemPart {
  readonly id: string;
  readonly text: string;
  readonly order: number;
  /** The plugin that added the part, or "build options". */
  readonly addedBy: string;
}

export interface SystemPromptParts {
  /** Adds a part; the insert-system stage merges all parts into one leading system message. */
  add(part: { id?: string; text: string; order?: number }): void;
  /** Parts sorted by order, then by when they were added. */
  list(): ReadonlyArray<SystemPart>;
}

/** Records why a plugin changed the item list; shows up in the build report. */
export interface DecisionRecorder {
  drop(item: Item | string, reason: string): void;
  repair(item: Item | string, reason: string): void;
  synthesize(item: Item | string, reason: string): void;
  merge(item: Item | string, intoId: string, reason: string): void;
  summarize(item: Item | string, summaryId: string, reason: string): void;
  /** The item is still sent, its content replaced by a shorter placeholder under the same id. */
  clear(item: Item | string, reason: string): void;
  /**
   * The item is still sent with part of its content cut (cutMiddle's `cut`); `original` is the whole
   * text that was cut, offloaded under cut.handle (see offload). Call once per text cut.
   */
  truncate(item: Item | string, reason: string, cut: TextCut, original: string): void;
  /**
   * Keeps a text the request leaves out (a cleared result's original) in report.offloaded, under
   * contentHandle(text), and returns that handle for a placeholder to name. Records no decision.
   */
  offload(item: Item | string, text: string): string;
  /**
   * Sets a plugin's own field of the report (see ReportAttachments). The last value attached in a
   * build wins; a build that runs its stages again starts without the earlier attempt's values.
   */
  attach<Key extends keyof ReportAttachments>(key: Key, value: ReportAttachments[Key]): void;
  /**
   * A recorder whose decisions name `plugin` instead of the running tap: for a tap that runs parts of
   * its own (a chain of strategies), so the report says which part decided.
   */
  as(plugin: string): Omit<DecisionRecorder, "attach" | "as">;
}

export interface StageContext {
  /** The stage now running. */
  readonly stage: StageLabel;
  readonly options: Readonly<BuildOptions>;
  readonly renderer: string;
  readonly model: string | undefined;
  readonly tokenizer: Tokenizer;
  /**
   * Undefined when the build has none: no maxTokens, and no known context window for a build given
   * reserveOutputTokens alone. The reserve is in `options.reserveOutputTokens` either way.
   */
  readonly budget: Budget | undefined;
  readonly tools: ReadonlyArray<ToolDefinition>;
  /** Every input item, validated and in conversation order, as the first stage received them. */
  readonly inputItems: ReadonlyArray<Item>;
  /** Turn groups of the input, computed once per build. */
  readonly turns: TurnGroups;
  readonly system: SystemPromptParts;
  readonly report: DecisionRecorder;
  /** Tokens of an item's content; cached per item and tokenizer across builds. */
  countTokens(item: Item): number;
  /** Records a problem the plugin noticed and worked around. */
  warn(message: string): void;
  /**
   * Violations that sent the build back to repair-orphans for a second pass; empty on the first.
   * A repair plugin can look at them to fix what the first pass missed.
   */
  readonly violations: ReadonlyArray<ValidationIssue>;
}

export interface ValidationIssueInput {
  readonly rule: string;
  readonly message: string;
  /** Default "error". */
  readonly level?: RuleLevel;
  /** The item concerned (or its id), for issues found in the item list. */
  readonly item?: Item;
  readonly itemId?: string;
  /** Position of that item in the list checked. */
  readonly position?: number;
  /** For issues found in a rendered request: where, and in which message. */
  readonly path?: string;
  readonly messageIndex?: number;
  /** The provider's own error text for this violation. */
  readonly providerError?: string;
}

export interface ValidateContext extends StageContext {
  /**
   * Reports a violation. Once every tap has run, the build's validation mode decides: "repair"
   * (the default) hands the items back to repair-orphans and checks again, "throw" fails the build,
   * "report" lists the violations in the report and goes on.
   */
  issue(issue: ValidationIssueInput): void;
}

export type RenderContext = StageContext;

export interface RenderResult<Request> {
  readonly request: Request;
  /** Tokens of the whole request, as the provider will count them (per-message overhead included). */
  readonly tokenCount: number;
  /**
   * false when the count is an estimate whatever the tokenizer: the request holds parts whose size
   * the renderer cannot know (a Responses request sending encrypted reasoning back). The build's
   * tokenCountExact is true only when the tokenizer is exact and this is not false.
   */
  readonly tokenCountExact?: boolean;
  /** Number of messages in the request, the system message included. */
  readonly messageCount: number;
  /** For each item id, the index of the (first) message that carries it. */
  readonly messageIndexById?: ReadonlyMap<string, number>;
  /**
   * For each message, the id of the item it came from, when one item renders to several messages (a
   * Responses assistant turn: reasoning, message and function calls), so a violation found in any of
   * them names the item. Default: the first item messageIndexById places at that index.
   */
  readonly messageItemIds?: ReadonlyArray<string | undefined>;
  /**
   * The request cut into the parts a provider's prompt cache reads in order, so that consecutive
   * builds can be compared (report.cache). Give the same object for a part that did not change and
   * the comparison costs nothing; equal JSON counts as unchanged too.
   */
  readonly prefix?: RequestPrefix;
}

export interface RequestPrefix {
  readonly tools?: unknown;
  /** The system prompt when the format keeps it outside the messages. */
  readonly system?: unknown;
  /**
   * The messages as the cache compares them: without cache markers (Anthropic's cache_control),
   * which a provider does not count as content, so a marker that moved does not break the prefix.
   */
  readonly messages: ReadonlyArray<unknown>;
  /** What each part costs, in the renderer's count, for report.cache.reusableTokens. */
  readonly tokens?: RequestPrefixTokens;
  /** Where the renderer placed cache markers, for report.cache.breakpoints. */
  readonly breakpoints?: ReadonlyArray<CacheBreakpoint>;
}

export interface RequestPrefixTokens {
  readonly tools: number;
  readonly system: number;
  /**
   * Running totals: messagesBefore[i] is the tokens of messages[0..i), so it has messages.length + 1
   * entries. An array or a typed array (kept until the next build, a Float64Array costs the garbage
   * collector less).
   */
  readonly messagesBefore: ArrayLike<number>;
}
