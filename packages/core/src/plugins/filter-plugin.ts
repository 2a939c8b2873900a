// Default filter stage: removes what must never be sent (seed 000 and seed 004).
import { z } from "zod";
import { isBlank } from "../model/is-blank.js";
import type { Item } from "../model/item.js";
import type { PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import { parsePluginOptions } from "./parse-plugin-options.js";

const PLUGIN_NAME = "FilterPlugin";

const filterPluginOptionsSchema = z.strictObject({
  /** Stored system messages are skipped: the system prompt is composed fresh for every build. */
  dropStoredSystemMessages: z.boolean().default(true),
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
      return "stored system message: the system prompt is composed fresh for every build";
    }
    if (options.dropExcludedItems && item.metadata.includeInContext === false) return "includeInContext is false";
    if (options.dropEmptyAssistantMessages && item.type === "assistant" && item.toolCalls.length === 0 && isBlank(item.text)) {
      return "empty assistant message without tool calls";
    }
    return undefined;
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.filter.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => {
      const kept: Item[] = [];
      for (const item of items) {
        const reason = this.#reasonToDrop(item);
        if (reason === undefined) kept.push(item);
        else context.report.drop(item, reason);
      }
      return kept.length === items.length ? undefined : kept;
    });
  }
}
