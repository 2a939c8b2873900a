// The report: what happened to every item, decided by which stage and plugin, and why.
import type { ValidationIssue } from "../errors/context-validation-error.js";
import type { ItemRole, ItemType } from "../model/item.js";
import type { TextCut } from "../text/text-cut.js";
import type { InputOrder } from "./build-options.js";
import type { StageLabel } from "./stage.js";
import type { SystemPart } from "./stage-context.js";

/**
 * "cleared": the item is still sent, with its content replaced by a short placeholder (an old tool
 * result whose call stays paired with it). "truncated": the item is still sent with part of its
 * content cut (cutMiddle: head and tail kept around a marker); the whole original is in
 * BuildReport.offloaded. Every other decision is as its name says.
 */
export type Decision = "kept" | "merged" | "dropped" | "repaired" | "synthesized" | "summarized" | "cleared" | "truncated";

/** One thing a plugin did to an item. An item's history lists them in the order they happened. */
export interface ReportEvent {
  readonly decision: Decision;
  readonly stage: StageLabel;
  readonly plugin: string;
  readonly reason: string;
  /** For "merged": the item it was merged into; for "summarized": the summary that replaced it. */
  readonly relatedId?: string;
  /** For "truncated": what was cut, and the handle the whole original is kept under. */
  readonly cut?: TextCut;
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
  /** For "truncated": what was cut (the last cut, when a plugin cut more than one text of the item). */
  readonly cut?: TextCut;
  /** Tokens of the item's content as sent, counted by the build's tokenizer (or, when it was not sent, what it would have cost). */
  readonly tokens: number;
  /**
   * Tokens of content the model no longer sees because of this decision: all of a dropped or
   * summarized item, the difference for a cleared or truncated one. Absent for items sent as they are.
   */
  readonly tokensSaved?: number;
  /** Position of the rendered message that carries the item, when the renderer reports it. */
  readonly messageIndex?: number;
  /** Everything plugins did to the item, in order. */
  readonly history: ReadonlyArray<ReportEvent>;
}

export interface BudgetReport {
  /** The build's maxTokens, or, given reserveOutputTokens alone, the model's context window. */
  readonly maxTokens: number;
  readonly reserveOutputTokens: number;
  /** maxTokens minus reserveOutputTokens: what the request may use. */
  readonly available: number;
  readonly used: number;
  /**
   * How many times the stages ran: more than 1 when a rendered request came out over the budget; 7
   * when every compressed request was over and the one with no budget given to compress was sent.
   */
  readonly attempts: number;
}

/** A part of the system prompt that was sent, with what it costs on its own. */
export interface SystemPartReport extends SystemPart {
  /** Tokens of the part's text alone; the prompt's separators are not in any part. */
  readonly tokens: number;
}

/**
 * Where this build's request first differs from the previous build's request of the same pipeline
 * and renderer: a provider's prompt cache can reuse everything before that point.
 */
export interface CacheReport {
  /** False on a pipeline's first build for a renderer: there was nothing to compare with. */
  readonly compared: boolean;
  /**
   * The first part that differs, in the order a prompt cache reads the request (tool definitions,
   * then the system prompt, then the messages); undefined when the previous request is a prefix of
   * this one, so the whole of it can be reused.
   */
  readonly breaksAt: "tools" | "system" | "messages" | undefined;
  /** Messages at the start of the request equal to the previous request's. */
  readonly sameMessages: number;
  /** Messages in the previous request (0 when nothing was compared). */
  readonly previousMessages: number;
  /**
   * Tokens of the previous request that this one starts with, in the renderer's count: what a
   * provider's prompt cache can reuse from the previous build (0 when nothing was compared).
   * Undefined when the renderer does not say what the parts of its request cost.
   */
  readonly reusableTokens?: number;
  /** Tokens of the previous request's cacheable parts (tools, system prompt, messages); 0 when nothing was compared. */
  readonly previousTokens?: number;
  /**
   * For a renderer that marks where the provider should cache (Anthropic's cache_control), each
   * place it considered, in the order the cache reads the request; undefined for other renderers.
   */
  readonly breakpoints?: ReadonlyArray<CacheBreakpoint>;
}

/** A place where a renderer asked (or chose not to ask) the provider to cache the request up to it. */
export interface CacheBreakpoint {
  /** Which part the marked block is in: the last tool definition, the system prompt, or a message. */
  readonly part: "tools" | "system" | "messages";
  /** For a breakpoint in the messages, the index of the message whose last block is marked. */
  readonly messageIndex?: number;
  /** Tokens of the request up to and including the marked block: what a later request can read from the cache. */
  readonly prefixTokens: number;
  /** False when no marker was set there; reason says why (a prefix below the model's minimum cacheable length). */
  readonly placed: boolean;
  readonly reason?: string;
}

/**
 * The whole original of a text the build cut (or cleared and offloaded), kept outside the request
 * so a caller can store it and the model can read it back by handle (retrieve_context).
 */
export interface OffloadedText {
  /** contentHandle(text): the handle the marker or placeholder names. */
  readonly handle: string;
  /** The item the text belongs to (the first one recorded, when several items held the same text). */
  readonly itemId: string;
  readonly text: string;
  /** text.length, in UTF-16 code units (the unit of the marker's from/to). */
  readonly chars: number;
}

/** Which order the items were put in (BuildOptions.order) and what it changed. */
export interface OrderReport {
  readonly by: InputOrder;
  /**
   * Items ordering put at another position than the input gave them (copies and earlier versions of
   * a record, left out before ordering, are not counted); always 0 with "input".
   */
  readonly moved: number;
}

/**
 * Fields plugin packages add to the report, by declaration merging:
 *
 *   declare module "@ctxpipe/core" {
 *     interface ReportAttachments { compression: CompressionReport }
 *   }
 *
 * A plugin fills its field with `context.report.attach("compression", value)`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by plugin packages through declaration merging
export interface ReportAttachments {}

export interface BuildReport extends Partial<Readonly<ReportAttachments>> {
  /**
   * Exactly one entry per input item, in input order. A record stored twice (same id, same content)
   * and the earlier versions of an edited record (same id, other content) have entries of their own:
   * dropped, naming the input index of the record sent in their place.
   */
  readonly entries: ReadonlyArray<ReportEntry>;
  /** Items plugins added (a system prompt, a synthesized tool result), in output order. */
  readonly synthesized: ReadonlyArray<ReportEntry>;
  /**
   * Every entry of `entries` and of `synthesized` in one list, each once, for iterating everything the
   * build decided about. The items in the request come in request order (the order the renderer
   * received them: the system prompt first, an added tool result right after its call, a summary
   * where the items it covers were); every input item that is not in the request (dropped,
   * summarized, merged into another item, an exact copy, an earlier version of an edited record)
   * keeps its place in the conversation: it comes just before the next input item that is in the
   * request, or at the end when none follows. "Next" is in conversation order (see `order`); an
   * exact copy counts as right after the record it copies, an earlier version as right before the
   * version that replaced it.
   *
   * Computed on first read. It is not an enumerable field: JSON.stringify(report) and
   * `{ ...report }` leave it out, since it holds the same entries as `entries` and `synthesized`.
   */
  readonly allEntries: ReadonlyArray<ReportEntry>;
  /** The parts merged into the system prompt that was sent, in prompt order; empty when none was sent. */
  readonly systemParts: ReadonlyArray<SystemPartReport>;
  readonly renderer: string;
  readonly tokenizer: { readonly name: string; readonly exact: boolean };
  readonly budget: BudgetReport | undefined;
  /** Which order the items were put in, and how many ordering moved. */
  readonly order: OrderReport;
  /**
   * Problems noticed and worked around, prefixed with the plugin's name ("[ctxpipe]" for the input
   * itself, e.g. a createdAt that is not a date).
   */
  readonly warnings: ReadonlyArray<string>;
  /** Rule violations left in the request; only the "report" validation mode sends a request with any. */
  readonly violations: ReadonlyArray<ValidationIssue>;
  /** Violations a second repair-orphans pass fixed ("repair" mode); empty when the first pass was clean. */
  readonly repairedViolations: ReadonlyArray<ValidationIssue>;
  /** Where the request stops matching the previous build's: what a provider's prompt cache loses. */
  readonly cache: CacheReport;
  /**
   * The whole original of every text this build cut or offloaded (report.truncate, report.offload),
   * each handle once, in input order of the items that held them; empty when nothing was.
   */
  readonly offloaded: ReadonlyArray<OffloadedText>;
}
