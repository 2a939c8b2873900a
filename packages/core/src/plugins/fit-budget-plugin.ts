// Default last word of the compress stage: when the history does not fit the budget, drop the oldest
// whole turn groups (a call never loses its result) until it does. The newest turn, the current loop,
// is never dropped; when it cannot fit on its own the build fails with a BudgetExceededError that
// says so. A group that holds a pinned item (metadata.pinned) is never dropped: older and newer
// groups around it go instead, and when the pinned items are what does not fit, the error names them.
// Compression strategies from @ctxpipe/compression run before it and usually leave it nothing
// to do.
//
// Drops come in steps: the cut point only moves when the history has grown by `stepRatio` of the
// budget since the last move, so for many turns in a row the request starts with the same messages
// (a provider's prompt cache keeps hitting) and earlier turns' work is reused.
import { z } from "zod";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import { isPinned, pinnedList } from "../model/is-pinned.js";
import type { Item } from "../model/item.js";
import type { TurnGroup } from "../model/turn-groups.js";
import { maybeInternalsOf } from "../pipeline/build-context.js";
import { currentTurnOf, estimateFixedTokens, estimateItemTokens } from "../pipeline/estimate-tokens.js";
import type { Items, PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import { TurnGroupsCache } from "../pipeline/turn-groups-cache.js";
import type { StageContext } from "../pipeline/stage-context.js";
import { GroupCosts, type GroupCostsView } from "./group-costs.js";
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
  readonly #costs = new GroupCosts();
  // A compression strategy hands this stage a list of its own: its groups are kept from build to build.
  readonly #turns = new TurnGroupsCache();

  constructor(options: FitBudgetPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, fitBudgetPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.compress.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => this.#fit(items, context));
  }

  #fit(items: Items, context: StageContext): Items | undefined {
    const budget = context.budget;
    if (budget === undefined || items.length === 0) return undefined;
    const turns = this.#turns.of(items, context);
    const groups = turns.groups;
    const costs = this.#costs.of(items, groups, context, estimateItemTokens);
    const total = estimateFixedTokens(context) + costs.total;
    // On a retry, what the last attempt really rendered against what this plugin estimated for it
    // says how far the estimates run low (a provider's heavier formatting, repairs): aim that much lower.
    const estimatedBefore = budget.previousTokenCount === undefined ? undefined : lastEstimates.get(context.inputItems);
    const scale = estimatedBefore === undefined || estimatedBefore <= 0 ? 1 : Math.max(1, budget.previousTokenCount! / estimatedBefore);
    const target = Math.min(budget.available - budget.shortfall, Math.floor(budget.available / scale));
    if (total <= target) {
      lastEstimates.set(context.inputItems, total);
      return undefined;
    }

    const current = currentTurnOf(turns, (id) => {
      const position = costs.positionOf(id);
      return position === undefined ? undefined : items[position];
    })!;

    // Tokens before each group boundary, counted from the start of the history: the step grid is
    // anchored there, so it does not shift as the history grows at the other end.
    const needed = total - target + REPAIR_ALLOWANCE;
    const step = Math.max(1, Math.floor(budget.available * this.#options.stepRatio));
    const goal = Math.max(needed, Math.ceil(needed / step) * step);
    let dropped = 0;
    let cut = 0;
    let droppedItems = 0;
    let lastDroppedPosition = -1;
    const droppedGroups: number[] = [];
    const pinnedGroups: number[] = [];
    while (cut < current.index && dropped < goal) {
      if (costs.pinned[cut]! > 0) {
        pinnedGroups.push(cut++);
        continue;
      }
      dropped += costs.cost[cut]!;
      droppedItems += costs.count[cut]!;
      lastDroppedPosition = Math.max(lastDroppedPosition, costs.lastPosition[cut]!);
      droppedGroups.push(cut++);
    }
    // The step rounding may ask for more than there is; what matters is that the rest fits. The
    // estimate may be high (repairs shorten names), so only a rendered request that was really over
    // (a second attempt) proves that the newest turn cannot fit.
    if (total - dropped > budget.available && cut === current.index && budget.shortfall > 0) {
      const newest = current.openedBy ?? current.itemIds[0];
      const pinned = pinnedGroups.flatMap((index) => groups[index]!.itemIds.map((id) => items[costs.positionOf(id)!]!).filter(isPinned));
      const detail =
        pinned.length === 0
          ? `The newest turn (from item "${newest}") and the system prompt need about ${total - dropped} tokens on their own; nothing older is left to drop.`
          : `The newest turn (from item "${newest}"), the system prompt and the pinned items ${pinnedList(pinned, context)} need about ${total - dropped} tokens on their own; nothing older that is not pinned is left to drop.`;
      throw new BudgetExceededError(total - dropped, budget.available, context.tokenizer.exact, { detail });
    }

    lastEstimates.set(context.inputItems, total - dropped);
    const reason = `over budget: the oldest turns were dropped to fit ${budget.available} tokens`;
    const kept: Item[] = [];
    const droppedIds: string[] = [];
    // The dropped groups usually hold exactly the first items of the list: one slice, no lookups.
    const leading = lastDroppedPosition === droppedItems - 1;
    const isDropped = leading ? (position: number) => position < droppedItems : droppedPositions(groups, droppedGroups, costs, items.length);
    const end = leading ? droppedItems : items.length;
    for (let position = 0; position < end; position++) {
      const item = items[position]!;
      if (isDropped(position) && item.type !== "system") droppedIds.push(item.id);
      else kept.push(item);
    }
    if (leading) for (let position = droppedItems; position < items.length; position++) kept.push(items[position]!);
    const internals = maybeInternalsOf(context);
    if (internals !== undefined) internals.recordAll(droppedIds, "dropped", reason);
    else for (const id of droppedIds) context.report.drop(id, reason);
    // A pinned group passed over while a later one went: its pinned items say why they stayed.
    const lastDropped = droppedGroups.at(-1) ?? -1;
    const skipped = pinnedGroups.filter((index) => index < lastDropped);
    if (internals !== undefined && skipped.length > 0) {
      const why = `pinned (metadata.pinned): kept while the turns around it were dropped to fit ${budget.available} tokens`;
      for (const index of skipped) for (const id of groups[index]!.itemIds) if (isPinned(items[costs.positionOf(id)!]!)) internals.record(id, "kept", why);
    }
    return kept;
  }
}

/** Which positions the dropped groups hold, when they are not simply the first items. */
function droppedPositions(groups: ReadonlyArray<TurnGroup>, droppedGroups: ReadonlyArray<number>, costs: GroupCostsView, length: number): (position: number) => boolean {
  const dropped = new Array<boolean>(length).fill(false);
  for (const index of droppedGroups) for (const id of groups[index]!.itemIds) dropped[costs.positionOf(id)!] = true;
  return (position) => dropped[position]!;
}
