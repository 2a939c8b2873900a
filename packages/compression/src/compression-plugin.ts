// CompressionPlugin: the compress stage's chain of strategies. It applies persisted summaries, then
// runs the strategies in order until the goal is met; each decision names the strategy (or
// "apply-summaries") that made it, so the report says which one dropped, cleared or summarized each
// item. Core's FitBudgetPlugin runs after it as the last word.
//
// Hysteresis without state: once the estimated request passes triggerThreshold × budget, the chain
// saves whole steps of (trigger − target) × budget, counted from the trigger point. Right after a
// step the request is back at the target; it then grows until the next step. Decided from the
// history alone, the cut stays put between steps, so consecutive builds share their prefix (the
// provider's prompt cache keeps hitting) and a reused pipeline builds what a new one would.
import {
  CtxpipeError,
  estimateFixedTokens,
  estimateItemTokens,
  type Items,
  type PipelinePlugin,
  type PluginHost,
  PluginError,
  PluginOptionsError,
  parsePluginOptions,
  positionsOf,
  STAGE,
  type StageContext,
  type TurnGroup,
  type TurnGroups,
} from "@ctxpipe/core";
import { z } from "zod";
import "./build-options.js";
import type { CompressionBuildOptions } from "./build-options.js";
import { COMPRESSION_NOTICE_ID, COMPRESSION_NOTICE_ORDER, type CompressionNoticeSummary, compressionNoticeText } from "./compression-notice.js";
import type { CompressionReport, ItemSaving, SummarizerReport } from "./compression-report.js";
import { DecisionBuffer } from "./decision-buffer.js";
import { checkThresholds, type CompressionSettings, compressionSettingsSchema } from "./compression-settings.js";
import type { CompressionContext, CompressionStrategy } from "./compression-strategy.js";
import { type IndexedList, ListIndex } from "./list-index.js";
import { isProtected, type Protection, protectionOf } from "./protection.js";
import { type StrategyEffect, countBelow, StrategyEffects } from "./strategy-effects.js";
import { type Session, sameSavings, savingsOf, sessions } from "./compression-session.js";
import { type StrategyInput, strategyFrom } from "./strategy-input.js";
import { type AppliedSummaries, applySummaries } from "./summaries/apply-summaries.js";
import type { Summarizer } from "./summaries/summarizer.js";
import { type SummaryRecord, summaryRecordSchema } from "./summaries/summary-record.js";

const PLUGIN_NAME = "CompressionPlugin";
/** Names the apply step's decisions in the report, as a strategy's name does for its own. */
const APPLY_STEP = "apply-summaries";
/** Passes of the chain in one build: each one after the first applies the summaries the one before made. */
const MAX_PASSES = 3;

const pluginOptionsSchema = compressionSettingsSchema
  .extend({
    /** The chain, in order: built-in strategy names, their settings, or strategy objects. */
    strategies: z.array(z.custom<StrategyInput>((value) => value !== undefined && value !== null, "a strategy name, settings or object")).min(1),
    /** The summarizer the "summarize" strategy calls when its own settings name none. */
    summarizer: z.custom<Summarizer>((value) => typeof value === "function", "a function (request) => Promise<string>").optional(),
    /** Position of the plugin's tap in the compress stage. Default STAGE.DEFAULT. */
    stage: z.number().default(STAGE.DEFAULT),
    /**
     * Tell the model, in one short system part ("compression-notice"), what this build cleared, cut,
     * summarized or left out and how to read it back. Default false (the loops turn it on); `{ text }`
     * writes the notice from the build's summary (return "" for none).
     */
    notice: z
      .union([z.boolean(), z.strictObject({ text: z.custom<(summary: CompressionNoticeSummary) => string>((value) => typeof value === "function", "a function (summary) => string").optional() })])
      .default(false),
  })
  .superRefine(checkThresholds);

export type CompressionPluginOptions = z.input<typeof pluginOptionsSchema>;

const buildOptionsSchema = z.union([
  z.literal(false),
  z
    .strictObject({
      tokenBudget: z.number().int().positive().optional(),
      triggerThreshold: z.number().gt(0).max(1).optional(),
      targetUsage: z.number().gt(0).max(1).optional(),
      minRecentMessages: z.number().int().nonnegative().optional(),
      loopStartId: z.string().min(1).optional(),
    })
    .optional(),
]);

export class CompressionPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #settings: CompressionSettings;
  readonly #strategies: ReadonlyArray<CompressionStrategy>;
  readonly #stage: number;
  readonly #notice: ((summary: CompressionNoticeSummary) => string | undefined) | undefined;
  // What each build's chain did, for its notice (the insert-system stage runs after compress, same context).
  readonly #summaries = new WeakMap<object, CompressionNoticeSummary>();
  // Kept from one build to the next, so a list that only grew is looked at only where it grew: the
  // input's index, the list each strategy receives (and the chain's output, last), and what each
  // strategy took out of its list.
  readonly #inputIndex = new ListIndex();
  readonly #indexes: ListIndex[];
  readonly #effects: StrategyEffects[];
  #lastNotice: { readonly buffer: DecisionBuffer; readonly savings: Session["savingParts"]; readonly summary: CompressionNoticeSummary } | undefined;

  constructor(options: CompressionPluginOptions) {
    const parsed = parsePluginOptions(PLUGIN_NAME, pluginOptionsSchema, options);
    const { strategies, stage, summarizer, notice, ...settings } = parsed;
    this.#settings = settings;
    this.#stage = stage;
    this.#notice = notice === false ? undefined : notice === true ? compressionNoticeText : (notice.text ?? compressionNoticeText);
    this.#strategies = strategies.map((input, index) => strategyFrom(input, index, { plugin: PLUGIN_NAME, summarizer }));
    this.#indexes = Array.from({ length: this.#strategies.length + 1 }, () => new ListIndex());
    this.#effects = this.#strategies.map((strategy) => new StrategyEffects(strategy.name));
    // Names are the report's plugin names for each decision: a clash is a configuration mistake, reported like
    // any other bad option (PluginOptionsError naming the entry), not as a plugin failure.
    const names = new Set<string>([APPLY_STEP]);
    for (const [index, strategy] of this.#strategies.entries()) {
      if (names.has(strategy.name)) {
        const clash = strategy.name === APPLY_STEP ? "is the name of the step that applies persisted summaries" : "is already the name of an earlier strategy";
        throw new PluginOptionsError(PLUGIN_NAME, `  strategies[${index}]: the name "${strategy.name}" ${clash}; names must be unique in a chain`);
      }
      names.add(strategy.name);
    }
  }

  /** The chain's strategies, in order. */
  get strategies(): ReadonlyArray<CompressionStrategy> {
    return this.#strategies;
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.compress.tapPromise({ name: PLUGIN_NAME, stage: this.#stage }, (items, context) => this.#compress(items, context));
    const notice = this.#notice;
    if (notice === undefined) return;
    // Before core's InsertSystemPlugin (STAGE.LATE) merges the parts.
    pipeline.hooks.insertSystem.tap({ name: PLUGIN_NAME, stage: STAGE.DEFAULT }, (items, context) => {
      const summary = this.#summaries.get(context);
      const text = summary === undefined ? undefined : notice(summary);
      if (text !== undefined && text.length > 0) context.system.add({ id: COMPRESSION_NOTICE_ID, text, order: COMPRESSION_NOTICE_ORDER });
      return items;
    });
  }

  async #compress(items: Items, context: StageContext): Promise<Items> {
    const perBuild = parseBuildOption("compression", buildOptionsSchema, context.options.compression) as CompressionBuildOptions | false | undefined;
    const records = parseBuildOption("summaries", z.array(summaryRecordSchema).optional(), context.options.summaries) ?? [];
    const settings: CompressionSettings = { ...this.#settings, ...(perBuild === false || perBuild === undefined ? {} : withoutUndefined(perBuild)) };
    if (settings.targetUsage > settings.triggerThreshold) parseBuildOption("compression", compressionSettingsSchema.superRefine(checkThresholds), settings);
    const enabled = perBuild !== false;
    const loopStartId = perBuild === false || perBuild === undefined ? undefined : perBuild.loopStartId;

    // A summary made in a pass changes what every later build starts from (they apply its record
    // before any strategy runs). So the chain starts over with it applied, and this build sends what
    // the next one will: a strategy ahead of summarize does not undo its work a turn later.
    const made: SummaryRecord[] = [];
    const madeBy = new Map<string, string>();
    let summarizer: SummarizerReport | undefined;
    let first: FirstPass | undefined;
    for (let pass = 1; ; pass++) {
      const buffer = new DecisionBuffer();
      // What the apply step took out, by who made each summary: a summary made in an earlier pass is
      // its strategy's work, a persisted one the apply step's.
      const applySavings: ItemSaving[] = [];
      const applyCosts = new Map<string, number>();
      const input = this.#inputIndex.of(items, context);
      const applied = applySummaries(items, [...records, ...made], {
        hasSummaryItem: input.hasSummary,
        recorderFor: (summaryId) => {
          const name = madeBy.get(summaryId) ?? APPLY_STEP;
          const recorder = buffer.as(name);
          return {
            ...recorder,
            summarize: (item, relatedId, reason) => {
              if (typeof item !== "string") applySavings.push({ id: item.id, strategy: name, tokensSaved: context.countTokens(item) });
              recorder.summarize(item, relatedId, reason);
            },
            synthesize: (item, reason) => {
              if (typeof item !== "string") applyCosts.set(name, (applyCosts.get(name) ?? 0) + context.countTokens(item));
              recorder.synthesize(item, reason);
            },
          };
        },
        warn: (message) => buffer.warn(`${APPLY_STEP}: ${message}`),
        madeNow: madeBy,
      });
      let indexed = this.#indexes[0]!.of(applied.items, context);
      const session = this.#session(context, settings, enabled, loopStartId, applied, indexed);
      if (applySavings.length > 0) session.savingParts.push({ savings: applySavings, length: applySavings.length });
      let current = applied.items;
      let restart = false;
      for (const [slot, strategy] of this.#strategies.entries()) {
        const scoped = buffer.contextFor(context, strategy.name);
        sessions.set(scoped, session);
        ({ items: current, indexed } = await this.#run(slot, strategy, indexed, scoped, session));
        if (session.summarizer !== undefined) summarizer = session.summarizer;
        if (pass === 1 && first === undefined && session.decided) first = { usageBefore: session.usageBefore, goal: session.goal, triggered: session.triggered };
        if (session.records.length > 0 && pass < MAX_PASSES) {
          for (const record of session.records) {
            made.push(record);
            madeBy.set(record.id, strategy.name);
          }
          restart = true;
          break;
        }
      }
      if (restart) continue;
      decideTrigger(session);
      if (first !== undefined) creditEarlierPasses(session, first, made, madeBy, applySavings, applyCosts);
      session.records.unshift(...made.filter((record) => !session.records.includes(record)));
      session.summarizer = summarizer ?? reusedRecords(records, session.applied);
      if (this.#notice !== undefined) this.#summaries.set(context, this.#noticeSummary(buffer, session, input));
      buffer.flush(context);
      context.report.attach("compression", reportOf(session));
      return current;
    }
  }

  /** The notice's summary; last build's when the chain made the same decisions with the same savings (they are kept objects). */
  #noticeSummary(buffer: DecisionBuffer, session: Session, input: IndexedList): CompressionNoticeSummary {
    const last = this.#lastNotice;
    const savings = session.savingParts;
    if (last !== undefined && sameSavings(last.savings, savings) && last.buffer.sameAs(buffer)) {
      this.#lastNotice = { ...last, buffer };
      return last.summary;
    }
    const summary = noticeSummaryOf(buffer, session, input);
    this.#lastNotice = { buffer, savings, summary };
    return summary;
  }

  #session(context: StageContext, settings: CompressionSettings, enabled: boolean, loopStartId: string | undefined, applied: AppliedSummaries, indexed: IndexedList): Session {
    const budget = settings.tokenBudget ?? context.budget?.available;
    const fixed = estimateFixedTokens(context);
    const usage = fixed + indexed.itemTokens;
    const session: Session = {
      settings,
      loopStartId,
      budget,
      enabled,
      fixed,
      usageBefore: usage,
      usage,
      goal: 0,
      saved: 0,
      triggered: false,
      decided: false,
      strategies: [],
      savingParts: [],
      applied: applied.applied,
      skipped: applied.skipped,
      records: [],
      summarizer: undefined,
    };
    return session;
  }

  async #run(slot: number, strategy: CompressionStrategy, indexed: IndexedList, context: StageContext, session: Session): Promise<{ items: Items; indexed: IndexedList }> {
    const items = indexed.items;
    const always = strategy.runs === "always";
    if (!always) decideTrigger(session);
    const remaining = session.goal - session.saved;
    const skip = always ? session.budget === undefined || !session.enabled : !session.triggered || remaining <= 0 || session.budget === undefined;
    if (skip || session.budget === undefined) {
      session.strategies.push({ name: strategy.name, ran: false, itemsAffected: 0, tokensSaved: 0 });
      return { items, indexed };
    }

    const { turns, positions } = indexed;
    const protection = protectionOf(items, turns, positions, session.settings.minRecentMessages, session.loopStartId, indexed.pinned);
    const groupProtected = protectedGroups(turns.groups, positions, items, protection);
    const compressionContext: CompressionContext = {
      build: context,
      budget: session.budget,
      target: session.settings.targetUsage * session.budget,
      usage: session.usage,
      remaining,
      turns,
      isProtected: (item) => {
        const position = positions.get(item.id);
        return position !== undefined && isProtected(protection, item, position);
      },
      isProtectedGroup: groupProtected,
      firstProtectedGroup: () => firstProtectedGroup(turns, items, protection),
      estimate: (item) => estimateItemTokens(item, context),
      itemById: (id) => {
        const position = positions.get(id);
        return position === undefined ? undefined : items[position];
      },
    };

    let returned: unknown;
    try {
      returned = await strategy.compress(items, compressionContext);
    } catch (error) {
      // A strategy's own typed error (SummarizerError) reaches the caller as it is; others name it.
      if (CtxpipeError.isInstance(error)) throw error;
      throw new PluginError(strategy.name, "compress", error);
    }
    if (returned !== undefined && returned !== null && !Array.isArray(returned)) {
      throw new PluginError(strategy.name, "compress", new Error(`returned ${typeof returned} instead of an item array; return the new list, or undefined to keep it`));
    }
    const result = (returned ?? items) as Items;
    const resultIndexed = result === items ? indexed : this.#indexes[slot + 1]!.of(result, context);
    // Its own work, counted exactly: all of an item it removed as the item stood (a placeholder an
    // earlier strategy left, not the original), the difference for one it replaced under the same
    // id, less what the items it added (a summary) cost.
    const effect = result === items ? NO_EFFECT : (this.#effects[slot]!.of(items, result, context, positions) ?? effectOf(strategy.name, items, result, positions, context));
    if (always) checkShortenedInPlace(strategy.name, items, result, effect);
    else checkProtectedKept(strategy.name, items, protection, effect, positions);
    // Parts with nothing in them are left out: a new empty array each build would make the savings look changed.
    if (effect.savings.length > 0) session.savingParts.push({ savings: effect.savings, length: effect.savings.length });
    session.strategies.push({ name: strategy.name, ran: true, itemsAffected: effect.savings.length, tokensSaved: effect.saved });
    const usage = session.fixed + resultIndexed.itemTokens;
    // Before the trigger is decided, what a strategy saves lowers the usage the trigger is decided from.
    if (session.decided) session.saved += Math.max(0, session.usage - usage);
    session.usage = usage;
    return { items: result, indexed: resultIndexed };
  }
}

const NO_EFFECT: StrategyEffect = { savings: [], saved: 0, positions: [] };

/**
 * What a strategy took out of its list, worked out the slow way (any list a strategy may return,
 * summaries added included): every item no longer in it, by identity, and the cost of the new ones.
 */
function effectOf(strategy: string, items: Items, result: Items, positions: ReadonlyMap<string, number>, context: StageContext): StrategyEffect {
  const savings: ItemSaving[] = [];
  const affectedPositions: number[] = [];
  let saved = 0;
  const present = new Set(result);
  let resultPositions: Map<string, number> | undefined;
  for (let at = 0; at < items.length; at++) {
    const item = items[at]!;
    if (present.has(item)) continue;
    resultPositions ??= positionsOf(result);
    const position = resultPositions.get(item.id);
    const tokensSaved = context.countTokens(item) - (position === undefined ? 0 : context.countTokens(result[position]!));
    savings.push({ id: item.id, strategy, tokensSaved });
    affectedPositions.push(at);
    saved += tokensSaved;
  }
  if (result.length + savings.length !== items.length || resultPositions !== undefined) {
    const before = new Set(items);
    for (const item of result) if (!before.has(item) && !positions.has(item.id)) saved -= context.countTokens(item);
  }
  return { savings, saved, positions: affectedPositions, slow: true };
}

/**
 * Decides, once per pass, whether the chain triggers and its goal, from the usage left after the
 * strategies that run always (a giant result cut to its cap does not make the chain clear old ones).
 */
function decideTrigger(session: Session): void {
  if (session.decided) return;
  session.decided = true;
  const { budget, settings, usage } = session;
  if (budget === undefined || !session.enabled) return;
  const triggerAt = settings.triggerThreshold * budget;
  if (usage <= triggerAt) return;
  const step = Math.max(1, Math.round((settings.triggerThreshold - settings.targetUsage) * budget));
  session.triggered = true;
  session.goal = Math.max(1, Math.ceil((usage - triggerAt) / step)) * step;
}

interface FirstPass {
  readonly usageBefore: number;
  readonly goal: number;
  readonly triggered: boolean;
}

/**
 * The report of a build that started over: figures from where it really started, and the summaries
 * made in earlier passes credited to the strategies that made them (the last pass only applied them):
 * the items their apply step took out, less what the summaries cost.
 */
function creditEarlierPasses(session: Session, first: FirstPass, made: ReadonlyArray<SummaryRecord>, madeBy: ReadonlyMap<string, string>, applySavings: ReadonlyArray<ItemSaving>, applyCosts: ReadonlyMap<string, number>): void {
  if (made.length === 0) return;
  const saved = Math.max(0, first.usageBefore - session.usageBefore);
  for (const name of new Set(made.map((record) => madeBy.get(record.id)!))) {
    const index = session.strategies.findIndex((strategy) => strategy.name === name);
    if (index === -1) continue;
    const entry = session.strategies[index]!;
    let affected = 0;
    let tokens = -(applyCosts.get(name) ?? 0);
    for (const saving of applySavings) {
      if (saving.strategy !== name) continue;
      affected++;
      tokens += saving.tokensSaved;
    }
    session.strategies[index] = { name, ran: true, itemsAffected: entry.itemsAffected + affected, tokensSaved: entry.tokensSaved + tokens };
  }
  session.saved += saved;
  session.usageBefore = first.usageBefore;
  session.goal = first.goal;
  session.triggered = first.triggered;
}

// The kinds the notice counts, by the code an item's last decision is noted under (0: none, 1: another kind).
const KIND_CODES: ReadonlyMap<string, number> = new Map([
  ["clear", 2],
  ["truncate", 3],
  ["summarize", 4],
  ["drop", 5],
]);
const OTHER_KIND = 1;

/**
 * Where the ids of a decision batch or run, or of a strategy's savings, are in the chain's input, for
 * the positions map they were looked up in (-1: not there when looked up). Batches and runs are
 * recorded again as they were build after build, and a strategy's savings array grows from one
 * build to the next, so each id is looked up once while the input's index only grows.
 */
const placesOf = new WeakMap<object, { readonly positions: ReadonlyMap<string, number>; places: Int32Array; length: number }>();

function placesFor(key: object | undefined, positions: ReadonlyMap<string, number>, count: number, idAt: (index: number) => string): Int32Array {
  const known = key === undefined ? undefined : placesOf.get(key);
  const from = known !== undefined && known.positions === positions && known.length <= count ? known.length : 0;
  if (known !== undefined && from === count) return known.places;
  const places = from > 0 && known!.places.length >= count ? known!.places : new Int32Array(Math.max(count, from * 2));
  if (from > 0 && places !== known!.places) places.set(known!.places.subarray(0, from));
  for (let index = from; index < count; index++) places[index] = positions.get(idAt(index)) ?? -1;
  if (key !== undefined) placesOf.set(key, { positions, places, length: count });
  return places;
}

/** What the chain's final pass decided, by kind (an item's last decision), with all the tokens it took out of each item. */
function noticeSummaryOf(buffer: DecisionBuffer, session: Session, input: IndexedList): CompressionNoticeSummary {
  // Each item's last kind, noted at its place in the chain's input (a typed array: no object per
  // decision, and a lookup is cheaper than a map that grows); ids the input does not hold (a summary
  // the chain made) in a map.
  const { positions } = input;
  const kinds = new Uint8Array(input.items.length);
  let others: Map<string, number> | undefined;
  // An id not in the input when its place was looked up may have been appended since: looked up again.
  const placeOf = (places: Int32Array, index: number, idAt: (index: number) => string): number => {
    const place = places[index]!;
    return place >= 0 ? place : (positions.get(idAt(index)) ?? -1);
  };
  buffer.forEachGroup((kind, key, count, idAt) => {
    const code = codeOf(kind);
    const places = placesFor(key, positions, count, idAt);
    for (let index = 0; index < count; index++) {
      const place = placeOf(places, index, idAt);
      if (place >= 0) kinds[place] = code;
      else {
        others ??= new Map();
        others.set(idAt(index), code);
      }
    }
  });
  const items = [0, 0, 0, 0, 0, 0];
  const tokens = [0, 0, 0, 0, 0, 0];
  for (const code of kinds) items[code]!++;
  if (others !== undefined) for (const code of others.values()) items[code]!++;
  for (const { savings, length } of session.savingParts) {
    const idAt = (index: number) => savings[index]!.id;
    const places = placesFor(savings, positions, length, idAt);
    for (let index = 0; index < length; index++) {
      const place = placeOf(places, index, idAt);
      const code = place >= 0 ? kinds[place]! : (others?.get(idAt(index)) ?? 0);
      tokens[code]! += savings[index]!.tokensSaved;
    }
  }
  const count = (kind: string) => {
    const code = codeOf(kind);
    return { items: items[code]!, tokens: tokens[code]! };
  };
  const truncated = count("truncate");
  // A cut result is kept whole under its handle; so is a cleared one whose placeholder names it.
  const offloaded = truncated.items > 0 || buffer.offloaded();
  return { cleared: count("clear"), truncated, summarized: count("summarize"), dropped: count("drop"), offloaded };
}

function codeOf(kind: string): number {
  return KIND_CODES.get(kind) ?? OTHER_KIND;
}

/** The summarizer's report when it was not asked because records passed back in `summaries` were applied. */
function reusedRecords(records: ReadonlyArray<SummaryRecord>, applied: ReadonlyArray<string>): SummarizerReport | undefined {
  const ids = new Set(applied);
  const used = records.filter((record) => ids.has(record.id));
  if (used.length === 0) return undefined;
  return { outcome: "reused", coveredCount: new Set(used.flatMap((record) => record.coveredIds)).size };
}

/** A per-build option that does not validate fails the build with PluginOptionsError naming the field. */
function parseBuildOption<Schema extends z.ZodType>(field: string, schema: Schema, value: unknown): z.output<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw new PluginOptionsError(PLUGIN_NAME, `  build option "${field}":\n${z.prettifyError(result.error).replaceAll("→ at ", `→ at ${field}.`)}`);
  return result.data;
}

function withoutUndefined<Value extends object>(value: Value): Partial<Value> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<Value>;
}

/** Whether a turn group holds a protected item, worked out for a group when first asked (a strategy asks about the oldest few). */
function protectedGroups(groups: ReadonlyArray<TurnGroup>, positions: ReadonlyMap<string, number>, items: Items, protection: Protection): (index: number) => boolean {
  const known = new Map<number, boolean>();
  return (index) => {
    let flag = known.get(index);
    if (flag !== undefined) return flag;
    flag = false;
    const group = groups[index];
    for (const id of group?.itemIds ?? []) {
      const position = positions.get(id)!;
      if (isProtected(protection, items[position]!, position)) {
        flag = true;
        break;
      }
    }
    known.set(index, flag);
    return flag;
  };
}

/**
 * The oldest group holding a protected item: the group of each item from `protection.from` on and of
 * each protected id before it (pinned items, the current loop's late results). Those are the newest
 * few items and the pinned ones, so this costs what they number, not the history.
 */
function firstProtectedGroup(turns: TurnGroups, items: Items, protection: Protection): number {
  let first = turns.groups.length;
  const consider = (id: string) => {
    const index = turns.groupOf(id)?.index;
    if (index !== undefined && index < first) first = index;
  };
  for (let position = protection.from; position < items.length; position++) consider(items[position]!.id);
  for (const id of protection.extra) consider(id);
  return first;
}

/** The current loop and the newest messages must come out exactly as they went in. */
function checkProtectedKept(strategy: string, before: Items, protection: Protection, effect: StrategyEffect, positions: ReadonlyMap<string, number>): void {
  // Only an item the strategy took out or replaced can be one it should have left alone. The
  // positions are in list order: the first one at or past `from`, and the few protected ones before
  // it, are found by a binary search each instead of a look at each of thousands of dropped items.
  const affected = effect.positions;
  let first = countBelow(affected, protection.from);
  for (const id of protection.extra) {
    const position = positions.get(id);
    if (position === undefined || position >= protection.from) continue;
    const at = countBelow(affected, position);
    if (at < first && affected[at] === position) first = at;
  }
  if (first === affected.length) return;
  const item = before[affected[first]!]!;
  throw new PluginError(strategy, "compress", new Error(`changed or removed item "${item.id}", which belongs to the current loop or the newest messages; strategies must leave those alone`));
}

/** A strategy that runs always only shortens: the same items, in order, each under its id and type. */
function checkShortenedInPlace(strategy: string, before: Items, after: Items, effect: StrategyEffect): void {
  let problem: string | undefined;
  if (after.length !== before.length) problem = `returned ${after.length} items for ${before.length}`;
  else {
    // Only the positions where the list changed can hold a moved or retyped item.
    const changedAt = (position: number) => before[position] !== after[position] && (before[position]!.id !== after[position]!.id || before[position]!.type !== after[position]!.type);
    const position = effect.slow === true ? before.findIndex((_, at) => changedAt(at)) : (effect.positions.find(changedAt) ?? -1);
    if (position !== -1) problem = `moved, removed or retyped item "${before[position]!.id}"`;
  }
  if (problem === undefined) return;
  throw new PluginError(strategy, "compress", new Error(`${problem}; a strategy that runs always must return the same items in the same order, shortened in place`));
}

function reportOf(session: Session): CompressionReport {
  const budget = session.budget;
  // savings is made on first read: at a long history's budget it holds thousands of entries, which a
  // loop that reads only records would otherwise make, keep until the next turn, and have the
  // garbage collector copy. An enumerable getter, in its place among the keys, so JSON and deep
  // equality read it as before.
  let savings: ItemSaving[] | undefined;
  const report = {
    budget,
    usageBefore: session.usageBefore,
    usageAfter: session.usage,
    triggerAt: budget === undefined ? undefined : Math.round(session.settings.triggerThreshold * budget),
    targetAt: budget === undefined ? undefined : Math.round(session.settings.targetUsage * budget),
    triggered: session.triggered,
    goal: session.goal,
    ran: session.applied.length > 0 || session.records.length > 0 || session.strategies.some((strategy) => strategy.itemsAffected > 0),
    strategies: [...session.strategies],
    savings: undefined as unknown as ReadonlyArray<ItemSaving>,
    appliedSummaries: [...session.applied],
    skippedSummaries: [...session.skipped],
    records: [...session.records],
    summarizer: session.summarizer,
  };
  // The parts are read up to the lengths they had now, so reading later gives what this build saved.
  const parts = session.savingParts.slice();
  return Object.defineProperty(report, "savings", {
    get: () => (savings ??= savingsOf({ savingParts: parts })),
    enumerable: true,
    configurable: true,
  });
}
