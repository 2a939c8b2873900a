// The report: what happened to every item, decided by which stage and plugin, and why.
import type { ValidationIssue } from "../errors/context-validation-error.js";
import type { ItemRole, ItemType } from "../model/item.js";
import type { StageLabel } from "./stage.js";
import type { SystemPart } from "./stage-context.js";

export type Decision = "kept" | "merged" | "dropped" | "repaired" | "synthesized" | "summarized";

/** One thing a plugin did to an item. An item's history lists them in the order they happened. */
export interface ReportEvent {
  readonly decision: Decision;
  readonly stage: StageLabel;
  readonly plugin: string;
  readonly reason: string;
  /** For "merged": the item it was merged into; for "summarized": the summary that replaced it. */
  readonly relatedId?: string;
}

export interface ReportEntry {
  readonly id: string;
  /** Position in the input; undefined for items a plugin synthesized. */
  readonly inputIndex: number | undefined;
  readonly type: ItemType;
  readonly role: ItemRole;
  /** The final decision about this item. */
  readonly decision: Decision;
  readonly stage: StageLabel;
  readonly plugin: string;
  readonly reason: string;
  readonly relatedId?: string;
  /** Tokens of the item's content, counted by the build's tokenizer (what it costs, or what dropping it saved). */
  readonly tokens: number;
  /** Position of the rendered message that carries the item, when the renderer reports it. */
  readonly messageIndex?: number;
  /** Everything plugins did to the item, in order. */
  readonly history: ReadonlyArray<ReportEvent>;
}

export interface BudgetReport {
  readonly maxTokens: number;
  readonly reserveOutputTokens: number;
  /** maxTokens minus reserveOutputTokens: what the request may use. */
  readonly available: number;
  readonly used: number;
  /** How many times the stages ran: more than 1 when a rendered request came out over the budget. */
  readonly attempts: number;
}

/** A part of the system prompt that was sent, with what it costs on its own. */
export interface SystemPartReport extends SystemPart {
  /** Tokens of the part's text alone; the prompt's separators are not in any part. */
  readonly tokens: number;
}

export interface BuildReport {
  /** Exactly one entry per input item, in input order. */
  readonly entries: ReadonlyArray<ReportEntry>;
  /** Items plugins added (a system prompt, a synthesized tool result), in output order. */
  readonly synthesized: ReadonlyArray<ReportEntry>;
  /** The parts merged into the system prompt that was sent, in prompt order; empty when none was sent. */
  readonly systemParts: ReadonlyArray<SystemPartReport>;
  readonly renderer: string;
  readonly tokenizer: { readonly name: string; readonly exact: boolean };
  readonly budget: BudgetReport | undefined;
  /** Problems plugins noticed and worked around, prefixed with the plugin's name. */
  readonly warnings: ReadonlyArray<string>;
  /** Rule violations left in the request; only the "report" validation mode sends a request with any. */
  readonly violations: ReadonlyArray<ValidationIssue>;
  /** Violations a second repair-orphans pass fixed ("repair" mode); empty when the first pass was clean. */
  readonly repairedViolations: ReadonlyArray<ValidationIssue>;
}
