// Tool-result clearing: old tool results give way to a short placeholder under the same id, so the
// call stays paired with its result and the model knows it can call again. The newest keepRecent
// results, results of excluded tools and anything protected stay. Once clearing is due it clears at
// least clearAtLeast tokens, oldest first: the cleared set grows in batches, so the request's prefix
// does not change on every turn (Anthropic's clear_at_least, for the same reason). A result whose
// placeholder would save less than minSaving tokens stays: wiping a short, useful result and breaking
// the cache for a handful of tokens is a loss. The original is offloaded (report.offloaded) under its
// handle, which the placeholder names, so the model can read it back with retrieve_context.
import { contentHandle, type DecisionBatch, type DecisionBatchEntry, type Item, type ItemOf, type Items, notePrefix, recordDecisionBatch, type Tokenizer } from "@ctxpipe/core";
import { z } from "zod";
import type { CompressionContext, CompressionStrategy } from "../compression-strategy.js";
import { startsWith } from "../list-index.js";
import { frozenReplacement } from "./frozen-replacement.js";
import { placeholderFiller } from "./placeholder-filler.js";
import { originalHandleOf, originalTextOf } from "./truncate-tool-results.js";

export const clearToolResultsSettingsSchema = z.strictObject({
  type: z.literal("clear-tool-results"),
  name: z.string().min(1).default("clear-tool-results"),
  /** The newest results left as they are. Default 3. */
  keepRecent: z.number().int().nonnegative().default(3),
  /** Tools whose results are never cleared (say, a memory or a plan tool). */
  excludeTools: z.array(z.string().min(1)).default([]),
  /** Once clearing, clear at least this many tokens. Default 1,000. */
  clearAtLeast: z.number().int().nonnegative().default(1000),
  /** A result is cleared only when its placeholder saves at least this many tokens. Default 50. */
  minSaving: z.number().int().positive().default(50),
  /**
   * The text that replaces a cleared result; `{tokens}`, `{tool}` and `{handle}` (the original's
   * contentHandle, under which report.offloaded keeps it) are filled in.
   */
  placeholder: z
    .string()
    .min(1)
    .default('[Tool result cleared to save context ({tokens} tokens). It is kept whole as {handle}: call retrieve_context with {"handle":"{handle}"} to read it, or call {tool} again.]'),
});

export type ClearToolResultsSettings = z.input<typeof clearToolResultsSettingsSchema>;

// One placeholder object per cleared result and text, kept while the result is: the same cleared item
// comes back on every build, so its count and rendered message are reused.
const placeholders = new WeakMap<Item, { text: string; item: ItemOf<"tool-result"> }>();
// A result's handle, hashed once per result object.
const handles = new WeakMap<Item, string>();

/** What a cleared result keeps whole: the original of a result truncate-tool-results cut, else its output. */
function originalOf(item: ItemOf<"tool-result">): string {
  return originalTextOf(item) ?? item.output;
}

function handleOf(item: ItemOf<"tool-result">): string {
  let handle = handles.get(item);
  if (handle === undefined) {
    handle = originalHandleOf(item) ?? contentHandle(originalOf(item));
    handles.set(item, handle);
  }
  return handle;
}

function placeholderOf(item: ItemOf<"tool-result">, text: string): ItemOf<"tool-result"> {
  const known = placeholders.get(item);
  if (known !== undefined && known.text === text) return known.item;
  const cleared = frozenReplacement(item, { output: text });
  placeholders.set(item, { text, item: cleared });
  return cleared;
}

/** The recorded batch of the clears from..to (exclusive) of a scan, and the first and last of them. */
interface Part {
  readonly from: number;
  readonly to: number;
  readonly first: Cleared;
  readonly last: Cleared;
  readonly batch: DecisionBatch;
}

/** One result the scan cleared: where, with what, and what that saved. */
interface Cleared {
  readonly position: number;
  readonly item: ItemOf<"tool-result">;
  readonly replacement: ItemOf<"tool-result">;
  readonly tokens: number;
  readonly saving: number;
}

/**
 * How far the scan over a list went (oldest first), kept for the next build: a list that only grew
 * is scanned on from where this one stopped, and a goal that did not grow takes the first clears
 * again, so a rebuild does not walk the history. Every item before `stop` was looked at once.
 */
interface Scan {
  readonly items: Items;
  /** The list's length when scanned (lists are not changed once made: kept without a copy). */
  readonly length: number;
  readonly tokenizer: Tokenizer;
  readonly cleared: Cleared[];
  /** Positions passed over because they were protected: they must still be, for the scan to hold. */
  readonly protectedAt: number[];
  /** What cleared[0..n] saved together, per n. */
  readonly savedUpTo: number[];
  stop: number;
}

export function clearToolResults(settings: Omit<ClearToolResultsSettings, "type"> = {}): CompressionStrategy {
  const options = clearToolResultsSettingsSchema.parse({ ...settings, type: "clear-tool-results" });
  const excluded = new Set(options.excludeTools);
  const offloads = options.placeholder.includes("{handle}");
  const fill = placeholderFiller(options.placeholder);
  const textFor = (item: ItemOf<"tool-result">, tokens: number) => fill(tokens, item.toolName ?? "the tool", offloads ? handleOf(item) : "");
  const placeholderHead = options.placeholder.split("{")[0]!;
  let last: Scan | undefined;
  // Last build's result and how many of the scan's clears it applied: a result made from a resumed
  // scan starts as that one did, which is noted for the walks over it (see notePrefix).
  let lastResult: { readonly result: Items; readonly count: number } | undefined;
  // The clears recorded, as batches over consecutive clears whose sizes at least double towards the
  // oldest: a build that clears a few more records the earlier batches again by reference (the
  // pipeline turns each into report events once) and makes one for the new clears, merged with the
  // small ones before it, so there are few batches and each clear is put in a new one a few times.
  let parts: Part[] = [];
  const entryOf = ({ item, tokens }: Cleared): DecisionBatchEntry => {
    if (!offloads) return { id: item.id, reason: `old tool result replaced by a placeholder (${tokens} tokens); its call stays paired with it` };
    const handle = handleOf(item);
    return { id: item.id, reason: `old tool result replaced by a placeholder (${tokens} tokens); its call stays paired with it, its original kept whole as ${handle}`, offload: { handle, text: originalOf(item) } };
  };
  const partsFor = (cleared: ReadonlyArray<Cleared>, count: number): Part[] => {
    const next: Part[] = [];
    let from = 0;
    // A part still holds when its first and last clears are the same objects at the same places: the
    // scan's list of clears only grows, or loses its end, so what lies between them is the same too.
    for (const part of parts) {
      if (part.to > count || cleared[part.from] !== part.first || cleared[part.to - 1] !== part.last) break;
      next.push(part);
      from = part.to;
    }
    if (from < count) {
      const entries: DecisionBatchEntry[] = [];
      for (let index = from; index < count; index++) entries.push(entryOf(cleared[index]!));
      next.push({ from, to: count, first: cleared[from]!, last: cleared[count - 1]!, batch: { decision: "cleared", entries } });
    }
    while (next.length >= 2 && next.at(-2)!.to - next.at(-2)!.from <= 2 * (next.at(-1)!.to - next.at(-1)!.from)) {
      const newer = next.pop()!;
      const older = next.pop()!;
      next.push({ from: older.from, to: newer.to, first: older.first, last: newer.last, batch: { decision: "cleared", entries: older.batch.entries.concat(newer.batch.entries) } });
    }
    return next;
  };

  /**
   * The last scan when `items` starts with its list and it still holds: what it cleared is still not
   * protected, and it holds up to the first result it passed over as protected that no longer is (the
   * newest messages of last build are older now); from there it looks again.
   */
  const resumable = (items: Items, context: CompressionContext): Scan | undefined => {
    const scan = last;
    if (scan === undefined || scan.tokenizer !== context.build.tokenizer || !startsWith(items, scan.items, scan.length)) return undefined;
    // What protects an item the scan cleared (the same object, so not pinned): the newest messages,
    // the current loop from its start on, or a loop start given now; all of them reach every item
    // after it, and the scan cleared oldest first, so the newest one cleared tells for all of them.
    // A late result of the current loop before its start is in the current loop's turn group, which
    // held nothing the scan cleared: that group was either protected then or older than a newer turn.
    const newest = scan.cleared.at(-1);
    if (newest !== undefined && context.isProtected(newest.item)) return undefined;
    const { protectedAt, cleared } = scan;
    for (let index = 0; index < protectedAt.length; index++) {
      const position = protectedAt[index]!;
      if (context.isProtected(items[position]!)) continue;
      // New arrays: the ones kept are shared with the batches recorded from them.
      let kept = cleared.length;
      while (kept > 0 && cleared[kept - 1]!.position > position) kept--;
      return { ...scan, cleared: cleared.slice(0, kept), savedUpTo: scan.savedUpTo.slice(0, kept), protectedAt: protectedAt.slice(0, index), stop: position };
    }
    return scan;
  };

  return {
    name: options.name,
    compress(items: Items, context: CompressionContext): Items | undefined {
      // The newest keepRecent results stay, wherever they are.
      let recent = 0;
      let keepFrom = items.length;
      for (let position = items.length - 1; position >= 0 && recent < options.keepRecent; position--) {
        if (items[position]!.type === "tool-result") {
          recent++;
          keepFrom = position;
        }
      }
      const goal = Math.max(context.remaining, options.clearAtLeast);
      // keepFrom only moves later as the list grows, so what the last scan looked at is still in range.
      const resumed = resumable(items, context);
      const scan: Scan = resumed ?? { items, length: items.length, tokenizer: context.build.tokenizer, cleared: [], protectedAt: [], savedUpTo: [], stop: 0 };
      // The clears resumed are last build's own objects, the same list up to `length`.
      const keptClears = scan.cleared.length;
      const sharedItems = scan.length;
      const previousResult = resumed === undefined ? undefined : lastResult;
      lastResult = undefined;
      // The scan is changed as it goes: a count that throws half-way must not leave it to the next build.
      last = undefined;
      let saved = scan.savedUpTo.at(-1) ?? 0;
      for (let position = scan.stop; position < keepFrom && saved < goal; position++) {
        scan.stop = position + 1;
        const item = items[position]!;
        if (item.type !== "tool-result") continue;
        if (context.isProtected(item)) {
          scan.protectedAt.push(position);
          continue;
        }
        if (item.toolName !== undefined && excluded.has(item.toolName)) continue;
        if (isPlaceholder(item, placeholderHead)) continue;
        const tokens = context.build.countTokens(item);
        const replacement = placeholderOf(item, textFor(item, tokens));
        const saving = tokens - context.build.countTokens(replacement);
        if (saving < options.minSaving) continue;
        saved += saving;
        scan.cleared.push({ position, item, replacement, tokens, saving });
        scan.savedUpTo.push(saved);
      }
      last = { ...scan, items, length: items.length };
      // The first clears that reach the goal: what a scan from the start would clear.
      let count = 0;
      while (count < scan.cleared.length && (count === 0 || scan.savedUpTo[count - 1]! < goal)) count++;
      if (count === 0) return undefined;
      const result = items.slice();
      for (let index = 0; index < count; index++) {
        const cleared = scan.cleared[index]!;
        result[cleared.position] = cleared.replacement;
      }
      if (previousResult !== undefined) notePrefix(result, previousResult.result, sameStart(scan.cleared, count, previousResult.count, keptClears, sharedItems));
      lastResult = { result, count };
      parts = partsFor(scan.cleared, count);
      for (const part of parts) recordDecisionBatch(context.build, options.name, part.batch);
      return result;
    },
  };
}

/**
 * How many first items this build's result shares with last build's, both made from lists that
 * share their first `sharedItems` items: the same but where one applied a clear the other did not.
 * The first `keptClears` clears are last build's own; this build applied `count`, that one `before`.
 */
function sameStart(cleared: ReadonlyArray<Cleared>, count: number, before: number, keptClears: number, sharedItems: number): number {
  const both = Math.min(count, before, keptClears);
  if (count === before && count <= keptClears) return sharedItems;
  // This build applied more of the same clears: the first it added is the first difference.
  if (count > before && before <= keptClears) return Math.min(sharedItems, cleared[before]!.position);
  // Fewer, or clears of its own: they agree at least up to the last clear both applied.
  return Math.min(sharedItems, both === 0 ? 0 : cleared[both - 1]!.position + 1);
}

/** A result that already reads as a placeholder (cleared in an earlier chain, or stored that way): its output starts with the template's text before the first "{". */
function isPlaceholder(item: ItemOf<"tool-result">, head: string): boolean {
  return head.length > 0 && item.output.startsWith(head);
}
