// What every tap receives next to the items: the build's options, tokenizer, turn groups, the system
// prompt parts and the decision recorder. One context object lives for one build.
import type { Item } from "../model/item.js";
import type { TurnGroups } from "../model/turn-groups.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import type { ToolDefinition } from "../spec/tool-definition.js";
import type { BuildOptions } from "./build-options.js";
import type { StageLabel } from "./stage.js";

export interface Budget {
  readonly maxTokens: number;
  readonly reserveOutputTokens: number;
  /** What the rendered request may use: maxTokens minus reserveOutputTokens. */
  readonly available: number;
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
}

export interface StageContext {
  /** The stage now running. */
  readonly stage: StageLabel;
  readonly options: Readonly<BuildOptions>;
  readonly renderer: string;
  readonly model: string | undefined;
  readonly tokenizer: Tokenizer;
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
}

export interface ValidationIssueInput {
  readonly rule: string;
  readonly message: string;
  readonly item?: Item;
  readonly position?: number;
}

export interface ValidateContext extends StageContext {
  /** Reports a violation; the build fails once every validate tap has run. */
  issue(issue: ValidationIssueInput): void;
}

export type RenderContext = StageContext;

export interface RenderResult<Request> {
  readonly request: Request;
  /** Tokens of the whole request, as the provider will count them (per-message overhead included). */
  readonly tokenCount: number;
  /** Number of messages in the request, the system message included. */
  readonly messageCount: number;
  /** For each item id, the index of the message that carries it. */
  readonly messageIndexById?: ReadonlyMap<string, number>;
}
