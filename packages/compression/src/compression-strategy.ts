// What a compression strategy is: a named step of the chain that gets the items and a context saying
// how many tokens are still to be saved, and returns fewer (or smaller) items. Third parties implement
// this interface and pass their strategy to CompressionPlugin next to the built-in ones.
import type { Item, Items, ItemsTapResult, StageContext, TurnGroups } from "@ctxpipe/core";

export interface CompressionContext {
  /** The build's stage context: the report, warnings, token counts, options. */
  readonly build: StageContext;
  /** Tokens the request may use. */
  readonly budget: number;
  /** Where compression aims once triggered: targetUsage × budget. */
  readonly target: number;
  /** Estimated tokens of the request made of the items this strategy receives. */
  readonly usage: number;
  /**
   * Tokens still to save in this build: the chain's goal minus what earlier strategies saved. Always
   * above 0 when a "when-triggered" strategy is called (0 for one that runs always, before the trigger
   * is decided); saving more than this moves the request's prefix for nothing.
   */
  readonly remaining: number;
  /** Turn groups of the items this strategy receives: act on whole groups and no call loses its result. */
  readonly turns: TurnGroups;
  /** Whether an item belongs to the current loop or the newest minRecentMessages: strategies leave those alone. */
  isProtected(item: Item): boolean;
  /** Whether a turn group holds a protected item. */
  isProtectedGroup(index: number): boolean;
  /**
   * The index of the oldest turn group that holds a protected item (`turns.groups.length` when none):
   * every group before it may be dropped whole. Found from the protected items, not by asking each group.
   */
  firstProtectedGroup(): number;
  /** An item's estimated cost in the request, message overhead included. */
  estimate(item: Item): number;
  /** The item with this id among the items this strategy receives. */
  itemById(id: string): Item | undefined;
}

export interface CompressionStrategy {
  /** Names the strategy in the report (each decision's plugin) and in errors. Unique within a chain. */
  readonly name: string;
  /**
   * When the chain calls it. "when-triggered" (the default): only once the request passes the trigger
   * point, and never on the current loop or the newest messages. "always": in every build with a
   * budget, before the trigger is decided, and it may shorten protected items too, in place: it must
   * return the same items in the same order, each under its id and type (truncate-tool-results cuts a
   * huge result of the current turn and keeps its call paired).
   */
  readonly runs?: "when-triggered" | "always";
  /**
   * Returns the items with less in them, or undefined to leave them as they are. Record every change
   * with `context.build.report` (drop, clear, summarize, synthesize) and say why.
   */
  compress(items: Items, context: CompressionContext): ItemsTapResult | Promise<ItemsTapResult>;
}
