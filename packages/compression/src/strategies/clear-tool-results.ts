// Tool-result clearing: old tool results give way to a short placeholder under the same id, so the
// call stays paired with its result and the model knows it can call again. The newest keepRecent
// results, results of excluded tools and anything protected stay. Once clearing is due it clears at
// least clearAtLeast tokens, oldest first: the cleared set grows in batches, so the request's prefix
// does not change on every turn (Anthropic's clear_at_least, for the same reason). A result whose
// placeholder would save less than minSaving tokens stays: wiping a short, useful result and breaking
// the cache for a handful of tokens is a loss. The original is offloaded (report.offloaded) under its
// handle, which the placeholder names, so the model can read it back with retrieve_context.
import { contentHandle, type Item, type ItemOf, type Items } from "@ctxpipe/core";
import { z } from "zod";
import type { CompressionContext, CompressionStrategy } from "../compression-strategy.js";
import { originalTextOf } from "./truncate-tool-results.js";

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
    handle = contentHandle(originalOf(item));
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

export function clearToolResults(settings: Omit<ClearToolResultsSettings, "type"> = {}): CompressionStrategy {
  const options = clearToolResultsSettingsSchema.parse({ ...settings, type: "clear-tool-results" });
  const excluded = new Set(options.excludeTools);
  const offloads = options.placeholder.includes("{handle}");
  const textFor = (item: ItemOf<"tool-result">, tokens: number) =>
    options.placeholder
      .replaceAll("{tokens}", String(tokens))
      .replaceAll("{tool}", item.toolName ?? "the tool")
      .replaceAll("{handle}", offloads ? handleOf(item) : "");

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
      const cleared = new Map<string, ItemOf<"tool-result">>();
      let saved = 0;
      for (let position = 0; position < keepFrom && saved < goal; position++) {
        const item = items[position]!;
        if (item.type !== "tool-result" || context.isProtected(item)) continue;
        if (item.toolName !== undefined && excluded.has(item.toolName)) continue;
        if (isPlaceholder(item, options.placeholder)) continue;
        const tokens = context.build.countTokens(item);
        const replacement = placeholderOf(item, textFor(item, tokens));
        const saving = tokens - context.build.countTokens(replacement);
        if (saving < options.minSaving) continue;
        cleared.set(item.id, replacement);
        saved += saving;
      }
      if (cleared.size === 0) return undefined;
      return items.map((item) => {
        const replacement = cleared.get(item.id);
        if (replacement === undefined || item.type !== "tool-result") return item;
        const tokens = context.build.countTokens(item);
        if (!offloads) {
          context.build.report.clear(item, `old tool result replaced by a placeholder (${tokens} tokens); its call stays paired with it`);
          return replacement;
        }
        const handle = context.build.report.offload(item, originalOf(item));
        context.build.report.clear(item, `old tool result replaced by a placeholder (${tokens} tokens); its call stays paired with it, its original kept whole as ${handle}`);
        return replacement;
      });
    },
  };
}

/** A result that already reads as a placeholder (cleared in an earlier chain, or stored that way). */
function isPlaceholder(item: ItemOf<"tool-result">, template: string): boolean {
  const head = template.split("{")[0]!;
  return head.length > 0 && item.output.startsWith(head);
}
