// Default: every text of every item stays within the longest string a provider accepts, even when
// the build has no budget. A longer text is cut in the middle (cutMiddle: head and tail kept, a
// marker naming the handle in between), reported "truncated", and its whole original goes to
// report.offloaded: the turn is never dropped and the request never refused for one huge string.
import { z } from "zod";
import type { Item } from "../model/item.js";
import { laneOf } from "../pipeline/build-context.js";
import type { Items, PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import type { StageContext } from "../pipeline/stage-context.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import { cutMiddle } from "../text/cut-middle.js";
import type { TextCut } from "../text/text-cut.js";
import { PROVIDER_MAX_STRING_LENGTH } from "../validation/portable-limits.js";
import { MatchingPositions } from "./matching-positions.js";
import { parsePluginOptions } from "./parse-plugin-options.js";

const PLUGIN_NAME = "HardLimitsPlugin";

// Room left under the limit for what renderers wrap around a text (a summary heading, "Error: ", XML
// tags, a neighbour merged into the same message). This much also holds a cut text to 10,000,000
// characters, RepairOrphansPlugin's default string cap, so that plugin finds nothing left to cut
// its own way (head only, no handle).
const DEFAULT_WRAPPING_ROOM = 485_760;

const hardLimitsPluginOptionsSchema = z
  .strictObject({
    /** The longest string a provider accepts; default PROVIDER_MAX_STRING_LENGTH (OpenAI's 10,485,760, the smallest known limit). */
    maxChars: z.number().int().min(10_000).max(PROVIDER_MAX_STRING_LENGTH).default(PROVIDER_MAX_STRING_LENGTH),
    /** Characters kept free under maxChars for the renderer's own wrapping. */
    wrappingRoom: z.number().int().min(0).default(DEFAULT_WRAPPING_ROOM),
    /**
     * Position in the repair-orphans stage. Default STAGE.EARLY: after the compress stage (whose
     * strategies cut to smaller, budget-aware sizes first) and after filter (a text the build leaves
     * out is neither cut nor offloaded, so it can never be read back by handle), and before
     * RepairOrphansPlugin (STAGE.DEFAULT) and validate, which then see only strings a provider accepts.
     */
    stage: z.number().default(STAGE.EARLY),
  })
  .refine((options) => options.maxChars - options.wrappingRoom >= 5_000, {
    path: ["wrappingRoom"],
    message: "leaves fewer than 5,000 characters under maxChars for the cut text and its marker",
  });

export type HardLimitsPluginOptions = z.input<typeof hardLimitsPluginOptionsSchema>;

/** One text of an item that was cut: which field, the cut, and the whole original. */
interface FieldCut {
  readonly field: "text" | "output";
  readonly cut: TextCut;
  readonly original: string;
}

interface CutItem {
  readonly item: Item;
  readonly cuts: ReadonlyArray<FieldCut>;
}

export class HardLimitsPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof hardLimitsPluginOptionsSchema>;
  // Items are immutable: a reused pipeline cuts a giant text once, not on every build (the marker
  // counts tokens, so per tokenizer).
  readonly #cache = new WeakMap<Tokenizer, WeakMap<Item, CutItem>>();
  // Where the long texts are: a rebuild looks only at the items appended since the last one.
  readonly #long: MatchingPositions;

  constructor(options: HardLimitsPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, hardLimitsPluginOptionsSchema, options);
    const limit = this.#options.maxChars - this.#options.wrappingRoom;
    this.#long = new MatchingPositions((item) => hasLongText(item, limit));
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.repairOrphans.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => this.#hold(items, context));
  }

  #hold(items: Items, context: StageContext): Items | undefined {
    const limit = this.#options.maxChars - this.#options.wrappingRoom;
    let changed: Item[] | undefined;
    for (const index of this.#long.of(items, laneOf(context))) {
      const item = items[index]!;
      const { item: cutItem, cuts } = this.#cut(item, limit, context.tokenizer);
      for (const { cut, original } of cuts) context.report.truncate(item, this.#reason(original.length), cut, original);
      changed ??= [...items];
      changed[index] = cutItem;
    }
    return changed;
  }

  #cut(item: Item, limit: number, tokenizer: Tokenizer): CutItem {
    let perItem = this.#cache.get(tokenizer);
    if (perItem === undefined) {
      perItem = new WeakMap();
      this.#cache.set(tokenizer, perItem);
    }
    const cached = perItem.get(item);
    if (cached !== undefined) return cached;
    const cuts: FieldCut[] = [];
    const replaced: Record<string, string> = {};
    for (const field of ["text", "output"] as const) {
      const original = (item as Partial<Record<typeof field, unknown>>)[field];
      if (typeof original !== "string" || original.length <= limit) continue;
      const { text, cut } = cutMiddle(original, { maxChars: limit, tokenizer });
      if (cut === undefined) continue;
      cuts.push({ field, cut, original });
      replaced[field] = text;
    }
    const result: CutItem = { item: { ...item, ...replaced } as Item, cuts };
    perItem.set(item, result);
    return result;
  }

  #reason(length: number): string {
    const { maxChars, wrappingRoom } = this.#options;
    if (length > maxChars) return `longer than the ${maxChars.toLocaleString("en-US")} characters a provider accepts in one string`;
    return `within ${wrappingRoom.toLocaleString("en-US")} characters of the ${maxChars.toLocaleString("en-US")} a provider accepts in one string: no room left for the renderer's wrapping`;
  }
}

function hasLongText(item: Item, limit: number): boolean {
  return ("text" in item && item.text.length > limit) || (item.type === "tool-result" && item.output.length > limit);
}
