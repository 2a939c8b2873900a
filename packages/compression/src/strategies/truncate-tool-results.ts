// Tool-result truncation: a result (or any single text) over its cap keeps its head and its tail, with
// a marker between them saying how much was cut and the handle to read it back by. It runs in every
// build with a budget, before the trigger is decided, and also on the current turn: the item stays
// under its id, so a call keeps its result, and a giant output no longer costs the turn that holds it.
// The same text under the same cap is cut the same way, so the request's prefix stays put. Pinned
// items are never cut (only a provider's hard string limit, in core, can cut one).
import { cutMiddle, type Item, type Items, isPinned, type Tokenizer, type TurnGroup } from "@ctxpipe/core";
import { z } from "zod";
import type { CompressionContext, CompressionStrategy } from "../compression-strategy.js";
import { startsWith } from "../list-index.js";
import { frozenReplacement } from "./frozen-replacement.js";

/** The per-result cap's default: a quarter of the budget, at most this many tokens. */
export const DEFAULT_MAX_TOKENS_PER_RESULT = 8000;
/** No cap, however many results a turn holds, goes under this: a marker and a useful head and tail need room. */
const MIN_CAP = 128;

export const truncateToolResultsSettingsSchema = z.strictObject({
  type: z.literal("truncate-tool-results"),
  name: z.string().min(1).default("truncate-tool-results"),
  /** Tokens one tool result may keep, marker included. Default: a quarter of the budget, at most 8,000. */
  maxTokensPerResult: z.number().int().min(MIN_CAP).optional(),
  /**
   * Tokens all tool results of one turn may keep together. Default: half the budget. Over it, the
   * largest results are cut first: all of them to one level, the highest that fits.
   */
  maxTokensPerTurn: z.number().int().min(MIN_CAP).optional(),
  /** Tokens any other single text (a user's pasted log, a huge assistant text) may keep. Default: maxTokensPerResult. */
  maxTokensPerText: z.number().int().min(MIN_CAP).optional(),
  /** Share of what is kept that goes to the head; the rest is the tail. Default 0.5 (a log's error is at its end). */
  headShare: z.number().min(0).max(1).default(0.5),
});

export type TruncateToolResultsSettings = z.input<typeof truncateToolResultsSettingsSchema>;

/** The caps a budget gives when the settings name none. */
export function truncationCaps(budget: number, settings: Omit<TruncateToolResultsSettings, "type"> = {}): { perResult: number; perTurn: number; perText: number } {
  const perResult = settings.maxTokensPerResult ?? Math.max(MIN_CAP, Math.min(DEFAULT_MAX_TOKENS_PER_RESULT, Math.floor(budget / 4)));
  const perTurn = settings.maxTokensPerTurn ?? Math.max(MIN_CAP, Math.floor(budget / 2));
  return { perResult, perTurn, perText: settings.maxTokensPerText ?? perResult };
}

// Item types whose `text` may be cut. Not system text (instructions), summaries (compression's own),
// or calls' arguments (JSON a provider parses).
const TEXT_TYPES: ReadonlySet<Item["type"]> = new Set(["user", "assistant", "error", "subagent-message", "subagent-result", "parent-message", "thinking"]);

// The whole text each cut item was made from, and its handle: a later strategy that clears a cut
// result offloads the original (the handle its marker already names), not the cut copy, and need not
// hash megabytes of output again for the handle.
const originals = new WeakMap<Item, { readonly text: string; readonly handle: string }>();

/** The whole original text of an item truncate-tool-results cut, or undefined for any other item. */
export function originalTextOf(item: Item): string | undefined {
  return originals.get(item)?.text;
}

/** The contentHandle() of originalTextOf(item), or undefined for an item truncate-tool-results did not cut. */
export function originalHandleOf(item: Item): string | undefined {
  return originals.get(item)?.handle;
}

type Cut = NonNullable<ReturnType<typeof cutMiddle>["cut"]>;
interface Truncated {
  readonly item: Item;
  readonly cut: Cut;
  /** The cap it was cut to. */
  readonly cap: number;
}

/**
 * What the last call cut, kept for the next: a list that only grew is looked at only where it grew
 * (its new items, and the turns that gained items, whose level may change).
 */
interface Cuts {
  readonly items: Items;
  /** The list's length when looked at (lists are not changed once made: kept without a copy). */
  readonly length: number;
  readonly tokenizer: Tokenizer;
  readonly caps: string;
  readonly groups: ReadonlyArray<TurnGroup>;
  /**
   * Each id's position, for the items up to `indexed`: made only when something is cut (a history
   * whose results all fit never needs it), then extended as the list grows.
   */
  readonly positions: Map<string, number>;
  indexed: number;
  /** Each item's cut to its own cap. */
  readonly own: Map<string, Truncated>;
  /** What is sent: the own cuts, and the cuts of turns over their cap. */
  readonly sent: Map<string, Truncated>;
}

export function truncateToolResults(settings: Omit<TruncateToolResultsSettings, "type"> = {}): CompressionStrategy {
  const options = truncateToolResultsSettingsSchema.parse({ ...settings, type: "truncate-tool-results" });
  // One cut per original, cap and tokenizer (null: it fits): a reused pipeline hands back the same
  // object, so its token count and rendered message are reused too, and no text is counted twice.
  const known = new WeakMap<Item, Map<string, Truncated | null>>();
  const truncate = (item: Item, maxTokens: number, tokenizer: Tokenizer, countTokens: (item: Item) => number): Truncated | undefined => {
    const text = textOf(item);
    // A token is at least one UTF-8 byte, at most three per UTF-16 unit: a short text needs no count.
    if (text === undefined || !mayExceed(text, maxTokens)) return undefined;
    const key = `${maxTokens}:${tokenizer.name}`;
    let cuts = known.get(item);
    if (cuts === undefined) {
      cuts = new Map();
      known.set(item, cuts);
    }
    const cached = cuts.get(key);
    if (cached !== undefined) return cached ?? undefined;
    // A result's text is all the build counts of it: its count (kept by the build) is not made again.
    const textTokens = item.type === "tool-result" ? { textTokens: countTokens(item) } : {};
    const { text: kept, cut } = cutMiddle(text, { maxTokens, tokenizer, headShare: options.headShare, ...textTokens });
    const truncated = cut === undefined ? null : { item: withText(item, kept), cut, cap: maxTokens };
    if (truncated !== null) originals.set(truncated.item, { text, handle: truncated.cut.handle });
    cuts.set(key, truncated);
    return truncated ?? undefined;
  };

  // The decisions' reasons, one per cut object (the same cut comes back on every build).
  const reasons = new WeakMap<Truncated, string>();
  const reasonOf = (original: Item, truncated: Truncated): string => {
    let reason = reasons.get(truncated);
    if (reason === undefined) {
      const what = original.type === "tool-result" ? "tool result" : "text";
      const { cut } = truncated;
      reason = `${what} over its cap of ${truncated.cap} tokens: its head and tail kept, ${cut.tokens} tokens (${cut.chars} characters) cut from the middle, kept whole as ${cut.handle}`;
      reasons.set(truncated, reason);
    }
    return reason;
  };
  let last: Cuts | undefined;

  return {
    name: options.name,
    runs: "always",
    compress(items: Items, context: CompressionContext): Items | undefined {
      const { build } = context;
      const caps = truncationCaps(context.budget, options);
      const capsKey = `${caps.perResult}:${caps.perTurn}:${caps.perText}`;
      const groups = context.turns.groups;
      const grown = last !== undefined && last.tokenizer === build.tokenizer && last.caps === capsKey && startsWith(items, last.items, last.length) ? last : undefined;
      const cuts: Cuts = grown ?? { items, length: items.length, tokenizer: build.tokenizer, caps: capsKey, groups: [], positions: new Map(), indexed: 0, own: new Map(), sent: new Map() };
      for (let position = grown === undefined ? 0 : grown.length; position < items.length; position++) {
        const item = items[position]!;
        // A pinned item is sent as written: the application asked for all of it.
        if (isPinned(item)) continue;
        const cap = item.type === "tool-result" ? caps.perResult : TEXT_TYPES.has(item.type) ? caps.perText : undefined;
        if (cap === undefined) continue;
        const truncated = truncate(item, cap, build.tokenizer, build.countTokens);
        if (truncated === undefined) continue;
        cuts.own.set(item.id, truncated);
        cuts.sent.set(item.id, truncated);
      }
      // A turn whose results together are over the turn cap: the largest are cut further, to one level.
      // Only a turn that gained items since the last call can have changed.
      for (let index = 0; index < groups.length; index++) {
        const group = groups[index]!;
        if (index < cuts.groups.length && cuts.groups[index] === group) continue;
        const results: Array<{ item: Item; tokens: number }> = [];
        for (const id of group.itemIds) {
          const item = context.itemById(id);
          if (item?.type !== "tool-result" || isPinned(item)) continue;
          const own = cuts.own.get(id);
          if (own === undefined) cuts.sent.delete(id);
          else cuts.sent.set(id, own);
          results.push({ item, tokens: build.countTokens(own?.item ?? item) });
        }
        const level = levelFor(results, caps.perTurn);
        if (level === undefined) continue;
        for (const { item, tokens } of results) {
          if (tokens <= level) continue;
          const truncated = truncate(item, level, build.tokenizer, build.countTokens);
          if (truncated !== undefined) cuts.sent.set(item.id, truncated);
        }
      }
      if (cuts.sent.size > 0) {
        for (let position = cuts.indexed; position < items.length; position++) cuts.positions.set(items[position]!.id, position);
        cuts.indexed = items.length;
      }
      last = { ...cuts, items, length: items.length, groups };
      if (cuts.sent.size === 0) return undefined;
      const sent = [...cuts.sent].map(([id, truncated]) => ({ position: cuts.positions.get(id)!, truncated }));
      sent.sort((left, right) => left.position - right.position);
      const result = items.slice();
      for (const { position, truncated } of sent) {
        const item = items[position]!;
        build.report.truncate(item, reasonOf(item, truncated), truncated.cut, textOf(item)!);
        result[position] = truncated.item;
      }
      return result;
    },
  };
}

/**
 * The one level every result of a turn is cut to so that together they fit the turn's cap: the
 * largest go first, the small ones stay whole. Undefined when the turn fits as it is.
 */
export function levelFor(results: ReadonlyArray<{ readonly tokens: number }>, perTurn: number): number | undefined {
  let total = 0;
  for (const result of results) total += result.tokens;
  if (total <= perTurn) return undefined;
  const sizes = results.map((result) => result.tokens).sort((a, b) => a - b);
  let below = 0;
  for (let index = 0; index < sizes.length; index++) {
    const left = sizes.length - index;
    const level = Math.floor((perTurn - below) / left);
    if (level < sizes[index]!) return Math.max(MIN_CAP, level);
    below += sizes[index]!;
  }
  return undefined;
}

function mayExceed(text: string, cap: number): boolean {
  return text.length * 3 > cap;
}

function textOf(item: Item): string | undefined {
  if (item.type === "tool-result") return item.output;
  return TEXT_TYPES.has(item.type) && "text" in item ? item.text : undefined;
}

/** The item with its text cut: deep-frozen, so the check after the compress tap keeps it as it is. */
function withText(item: Item, text: string): Item {
  return item.type === "tool-result" ? frozenReplacement(item, { output: text }) : frozenReplacement(item, { text } as Partial<Item>);
}
