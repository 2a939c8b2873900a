// Default filter stage: removes what must never be sent (items excluded from context, empty
// assistant messages). Stored system messages pass: InsertSystemPlugin decides what becomes of them
// once the system prompt's parts are known.
import { z } from "zod";
import { isBlank } from "../model/is-blank.js";
import type { Item } from "../model/item.js";
import type { PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { laneOf } from "../pipeline/build-context.js";
import { STAGE } from "../pipeline/stage.js";
import { MatchingPositions, withoutPositions } from "./matching-positions.js";
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
  // Where the items to drop are: a rebuild asks only the items appended since the last one.
  readonly #dropped = new MatchingPositions((item) => this.#reasonToDrop(item) !== undefined);

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
      const positions = this.#dropped.of(items, laneOf(context));
      if (positions.length === 0) return undefined;
      for (const position of positions) context.report.drop(items[position]!, this.#reasonToDrop(items[position]!)!);
      return withoutPositions(items, positions);
    });
  }
}
