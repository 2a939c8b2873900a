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
import { isBlank } from "../model/is-blank.js";
import { computeTurnGroups, type TurnGroup } from "../model/turn-groups.js";
import type { Items, PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import type { StageContext } from "../pipeline/stage-context.js";
import { parsePluginOptions } from "./parse-plugin-options.js";

const PLUGIN_NAME = "FitBudgetPlugin";

// What a message costs on top of its text in every provider's format (OpenAI: 3 + the role), and
// what a request costs before its first message (OpenAI primes the reply with 3). The render check
// after this estimate is exact; an estimate that falls short only costs a second attempt.
const PER_ITEM = 4;
const PER_TOOL_CALL = 3;
const PER_REQUEST = 3;
// Once something has to go anyway, room for what repair-orphans may add after this stage (a
// "Continue." turn, a conversation start), so that a second attempt stays rare.
const REPAIR_ALLOWANCE = 16;

const fitBudgetPluginOptionsSchema = z.strictObject({
  /** Fraction of the available budget by which the cut point moves at a time (0 = every turn). */
  stepRatio: z.number().min(0).max(0.5).default(0.1),
  stage: z.number().default(STAGE.LAST),
});

export type FitBudgetPluginOptions = z.input<typeof fitBudgetPluginOptionsSchema>;

function itemCost(item: Item, context: StageContext): number {
  // Stored system messages are skipped by the filter stage and never sent; they cost nothing here.
  if (item.type === "system") return 0;
  const calls = item.type === "assistant" ? item.toolCalls.length : 0;
  return context.countTokens(item) + PER_ITEM + PER_TOOL_CALL * calls;
}

/**
 * The turn to protect: the newest one opened by something the user said that will be sent. A newer
 * turn opened by a blank or excluded message protects nothing on its own.
 */
function newestSendableTurn(groups: ReadonlyArray<TurnGroup>, items: Items, positionOf: ReadonlyMap<string, number>): TurnGroup {
  for (let index = groups.length - 1; index > 0; index--) {
    const group = groups[index]!;
    const opener = group.openedBy === undefined ? undefined : items[positionOf.get(group.openedBy)!];
    if (opener === undefined || opener.metadata.includeInContext === false) continue;
    const hasAttachments = opener.type === "user" && opener.attachments !== undefined && opener.attachments.length > 0;
    if (hasAttachments || ("text" in opener && !isBlank(opener.text))) return group;
  }
  return groups[0]!;
}

function fixedCost(context: StageContext): number {
  let total = PER_REQUEST;
  for (const part of context.system.list()) total += PER_ITEM + context.tokenizer.count(part.text);
  if (context.tools.length > 0) total += context.tokenizer.count(JSON.stringify(context.tools));
  return total;
}

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
    const target = budget.available - budget.shortfall;
    const costs = new Array<number>(items.length);
    let total = fixedCost(context);
    for (let index = 0; index < items.length; index++) total += costs[index] = itemCost(items[index]!, context);
    if (total <= target) return undefined;

    const turns = items === context.inputItems ? context.turns : computeTurnGroups(items);
    const positionOf = new Map<string, number>();
    for (let index = 0; index < items.length; index++) positionOf.set(items[index]!.id, index);
    const groups = turns.groups;
    const current = newestSendableTurn(turns.groups, items, positionOf);

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
