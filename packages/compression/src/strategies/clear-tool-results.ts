// Tool-result clearing: old tool results give way to a short placeholder under the same id, so the
// call stays paired with its result and the model knows it can call again. The newest keepRecent
// results, results of excluded tools and anything protected stay. Once clearing is due it clears at
// least clearAtLeast tokens, oldest first: the cleared set grows in batches, so the request's prefix
// does not change on every turn (Anthropic's clear_at_least, for the same reason). A result whose
// placeholder would save less than minSaving tokens stays: wiping a short, useful result and breaking
// the cache for a handful of tokens is a loss. The original is offloaded (report.offloaded) under its
// handle, which the placeholder names, so the model can read it back with retrieve_context.
import { contentHandle, type DecisionBatch, type DecisionBatchEntry, type Item, type ItemOf, type Items, recordDecisionBatch, type Tokenizer } from "@ctxpipe/core";
import { z } from "zod";
import type { CompressionContext, CompressionStrategy } from "../compression-strategy.js";
import { startsWith } from "../list-index.js";
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
  const cleared = Object.freeze({ ...item, output: text }) as ItemOf<"tool-result">;
  placeholders.set(item, { text, item: cleared });
  return cleared;
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
  let batch: { readonly of: ReadonlyArray<Cleared>; readonly count: number; readonly batch: DecisionBatch } | undefined;
  const batchOf = (cleared: ReadonlyArray<Cleared>, count: number): DecisionBatch => {
    const entries: DecisionBatchEntry[] = [];
    for (let index = 0; index < count; index++) {
      const { item, tokens } = cleared[index]!;
      if (!offloads) {
        entries.push({ id: item.id, reason: `old tool result replaced by a placeholder (${tokens} tokens); its call stays paired with it` });
        continue;
      }
      const text = originalOf(item);
      const handle = handleOf(item);
      entries.push({ id: item.id, reason: `old tool result replaced by a placeholder (${tokens} tokens); its call stays paired with it, its original kept whole as ${handle}`, offload: { handle, text } });
    }
    return { decision: "cleared", entries };
  };

  /** The last scan when `items` starts with its list and it still holds (what it passed over as protected still is, what it cleared still is not). */
  const resumable = (items: Items, context: CompressionContext): Scan | undefined => {
    const scan = last;
    if (scan === undefined || scan.tokenizer !== context.build.tokenizer || !startsWith(items, scan.items, scan.length)) return undefined;
    for (const position of scan.protectedAt) if (!context.isProtected(items[position]!)) return undefined;
    // What protects an item the scan cleared (the same object, so not pinned): the newest messages,
    // the current loop from its start on, or a loop start given now; all of them reach every item
    // after it, and the scan cleared oldest first, so the newest one cleared tells for all of them.
    // A late result of the current loop before its start is in the current loop's turn group, which
    // held nothing the scan cleared: that group was either protected then or older than a newer turn.
    const newest = scan.cleared.at(-1);
    if (newest !== undefined && context.isProtected(newest.item)) return undefined;
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
      const scan: Scan = resumable(items, context) ?? { items, length: items.length, tokenizer: context.build.tokenizer, cleared: [], protectedAt: [], savedUpTo: [], stop: 0 };
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
      // The same first clears as last build: the same batch, recorded by reference.
      if (batch === undefined || batch.of !== scan.cleared || batch.count !== count) batch = { of: scan.cleared, count, batch: batchOf(scan.cleared, count) };
      recordDecisionBatch(context.build, options.name, batch.batch);
      return result;
    },
  };
}

/** A result that already reads as a placeholder (cleared in an earlier chain, or stored that way): its output starts with the template's text before the first "{". */
function isPlaceholder(item: ItemOf<"tool-result">, head: string): boolean {
  return head.length > 0 && item.output.startsWith(head);
}
