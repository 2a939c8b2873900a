// Default last word of the compress stage: when the history does not fit the budget, drop the oldest
// whole turn groups (a call never loses its result) until it does. The newest turn, the current loop,
// is never dropped; when it cannot fit on its own the build fails with a BudgetExceededError that
// says so. Compression strategies from @ctxpipe/compression run before it and usually leave it nothing
// to do.
//
// Drops come in steps: the cut point only moves when the history has grown by `stepRatio` of the
// budget since the last move, so for many turns in a row the request starts with the same messages
// (a provider's prompt cache keeps hitting) and earlier turns' work is reused.
import { z } from "zod";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import type { Item } from "../model/item.js";
import { computeTurnGroups } from "../model/turn-groups.js";
import { currentTurnOf, estimateFixedTokens, estimateItemTokens, positionsOf } from "../pipeline/estimate-tokens.js";
import type { Items, PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import type { StageContext } from "../pipeline/stage-context.js";
import { parsePluginOptions } from "./parse-plugin-options.js";

const PLUGIN_NAME = "FitBudgetPlugin";

// Once something has to go anyway, room for what repair-orphans may add after this stage (a
// "Continue." turn, a conversation start), so that a second attempt stays rare.
const REPAIR_ALLOWANCE = 16;

const fitBudgetPluginOptionsSchema = z.strictObject({
  /** Fraction of the available budget by which the cut point moves at a time (0 = every turn). */
  stepRatio: z.number().min(0).max(0.5).default(0.1),
  stage: z.number().default(STAGE.LAST),
});

export type FitBudgetPluginOptions = z.input<typeof fitBudgetPluginOptionsSchema>;

/** This plugin's estimate of the request it let through, per build, for the next attempt to compare with. */
const lastEstimates = new WeakMap<ReadonlyArray<Item>, number>();

export class FitBudgetPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof fitBudgetPluginOptionsSchema>;

  constructor(options: FitBudgetPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, fitBudgetPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.compress.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => this.#fit(items, context));
  }

  #fit(items: Items, context: StageContext): Items | undefined {
    const budget = context.budget;
    if (budget === undefined || items.length === 0) return undefined;
    const costs = new Array<number>(items.length);
    let total = estimateFixedTokens(context);
    for (let index = 0; index < items.length; index++) total += costs[index] = estimateItemTokens(items[index]!, context);
    // On a retry, what the last attempt really rendered against what this plugin estimated for it
    // says how far the estimates run low (a provider's heavier formatting, repairs): aim that much lower.
    const estimatedBefore = budget.previousTokenCount === undefined ? undefined : lastEstimates.get(context.inputItems);
    const scale = estimatedBefore === undefined || estimatedBefore <= 0 ? 1 : Math.max(1, budget.previousTokenCount! / estimatedBefore);
    const target = Math.min(budget.available - budget.shortfall, Math.floor(budget.available / scale));
    if (total <= target) {
      lastEstimates.set(context.inputItems, total);
      return undefined;
    }

    const turns = items === context.inputItems ? context.turns : computeTurnGroups(items);
    const positionOf = positionsOf(items);
    const groups = turns.groups;
    const current = currentTurnOf(turns, (id) => items[positionOf.get(id)!])!;

    // Tokens before each group boundary, counted from the start of the history: the step grid is
    // anchored there, so it does not shift as the history grows at the other end.
    const needed = total - target + REPAIR_ALLOWANCE;
    const step = Math.max(1, Math.floor(budget.available * this.#options.stepRatio));
    const goal = Math.max(needed, Math.ceil(needed / step) * step);
    let dropped = 0;
    let cut = 0;
    while (cut < current.index && dropped < goal) {
      for (const id of groups[cut]!.itemIds) dropped += costs[positionOf.get(id)!]!;
      cut++;
    }
    // The step rounding may ask for more than there is; what matters is that the rest fits. The
    // estimate may be high (repairs shorten names), so only a rendered request that was really over
    // (a second attempt) proves that the newest turn cannot fit.
    if (total - dropped > budget.available && cut === current.index && budget.shortfall > 0) {
      const newest = current.openedBy ?? current.itemIds[0];
      throw new BudgetExceededError(total - dropped, budget.available, context.tokenizer.exact, {
        detail: `The newest turn (from item "${newest}") and the system prompt need about ${total - dropped} tokens on their own; nothing older is left to drop.`,
      });
    }

    lastEstimates.set(context.inputItems, total - dropped);
    const droppedIds = new Set<string>();
    for (let index = 0; index < cut; index++) for (const id of groups[index]!.itemIds) droppedIds.add(id);
    const reason = `over budget: the oldest turns were dropped to fit ${budget.available} tokens`;
    const kept: Item[] = [];
    for (const item of items) {
      if (droppedIds.has(item.id) && item.type !== "system") context.report.drop(item, reason);
      else kept.push(item);
    }
    return kept;
  }
}
