// Default filter stage: removes what must never be sent (items excluded from context, empty
// assistant messages). Stored system messages pass: InsertSystemPlugin decides what becomes of them
// once the system prompt's parts are known.
import { z } from "zod";
import { isBlank } from "../model/is-blank.js";
import type { Item } from "../model/item.js";
import type { Items, PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { type Lane, laneOf } from "../pipeline/build-context.js";
import { sharedPrefixLength } from "../pipeline/input-preparer.js";
import { STAGE } from "../pipeline/stage.js";
import { parsePluginOptions } from "./parse-plugin-options.js";

const PLUGIN_NAME = "FilterPlugin";

const filterPluginOptionsSchema = z.strictObject({
  /**
   * True drops every stored system message here, whatever the build composes. By default they pass,
   * and InsertSystemPlugin's storedSystemMessages option decides (they are the system prompt when
   * the build composes none).
   */
  dropStoredSystemMessages: z.boolean().default(false),
  /** Items whose metadata says `includeInContext: false`. */
  dropExcludedItems: z.boolean().default(true),
  /** Assistant messages with blank text and no tool calls. */
  dropEmptyAssistantMessages: z.boolean().default(true),
  stage: z.number().default(STAGE.DEFAULT),
});

export type FilterPluginOptions = z.input<typeof filterPluginOptionsSchema>;

export class FilterPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof filterPluginOptionsSchema>;

  constructor(options: FilterPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, filterPluginOptionsSchema, options);
  }

  #reasonToDrop(item: Item): string | undefined {
    const options = this.#options;
    if (options.dropStoredSystemMessages && item.type === "system") {
      return "stored system message: FilterPlugin drops them (dropStoredSystemMessages: true)";
    }
    if (options.dropExcludedItems && item.metadata.includeInContext === false) return "includeInContext is false";
    if (options.dropEmptyAssistantMessages && item.type === "assistant" && item.toolCalls.length === 0 && isBlank(item.text)) {
      return "empty assistant message without tool calls";
    }
    return undefined;
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.filter.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => {
      const { kept, dropped } = this.#filter(items, laneOf(context));
      for (const { item, reason } of dropped) context.report.drop(item, reason);
      return kept.length === items.length ? undefined : kept;
    });
  }

  /** The last list filtered, per lane: a list that starts with the same items reuses what was decided for them. */
  readonly #last = new Map<Lane, { items: Items; kept: Item[]; keptBefore: number[]; dropped: Dropped[] }>();

  #filter(items: Items, lane: Lane): { kept: Item[]; dropped: Dropped[] } {
    const last = this.#last.get(lane) ?? { items: [], kept: [], keptBefore: [0], dropped: [] };
    const shared = sharedPrefixLength(items, last.items);
    const kept = last.kept.slice(0, last.keptBefore[shared]);
    const keptBefore = last.keptBefore.slice(0, shared + 1);
    const dropped = last.dropped.filter((entry) => entry.position < shared);
    for (let position = shared; position < items.length; position++) {
      const item = items[position]!;
      const reason = this.#reasonToDrop(item);
      if (reason === undefined) kept.push(item);
      else dropped.push({ item, reason, position });
      keptBefore.push(kept.length);
    }
    this.#last.set(lane, { items: items.slice(), kept: kept.slice(), keptBefore, dropped });
    return { kept, dropped };
  }
}

interface Dropped {
  readonly item: Item;
  readonly reason: string;
  readonly position: number;
}
