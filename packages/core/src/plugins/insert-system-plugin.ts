// Default insert-system stage: merges the system prompt parts (from build options and from plugins
// that ran earlier in this stage) into one system message at the front.
import { z } from "zod";
import type { ItemOf } from "../model/item.js";
import type { PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import { SYSTEM_PROMPT_ID } from "../pipeline/system-prompt-id.js";
import { parsePluginOptions } from "./parse-plugin-options.js";

const PLUGIN_NAME = "InsertSystemPlugin";

const insertSystemPluginOptionsSchema = z.strictObject({
  /** Placed between parts. */
  separator: z.string().default("\n\n"),
  /** Late in the stage, so plugins tapping at STAGE.DEFAULT can add parts first. */
  stage: z.number().default(STAGE.LATE),
});

export type InsertSystemPluginOptions = z.input<typeof insertSystemPluginOptionsSchema>;

export class InsertSystemPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof insertSystemPluginOptionsSchema>;
  // The same prompt gives the same item object, so per-item token caches keep hitting across builds.
  #last: ItemOf<"system"> | undefined;

  constructor(options: InsertSystemPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, insertSystemPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.insertSystem.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => {
      if (context.options.includeSystemPrompt === false) return undefined;
      const parts = context.system.list().filter((part) => part.text.length > 0);
      if (parts.length === 0) return undefined;
      const text = parts.map((part) => part.text).join(this.#options.separator);
      const system: ItemOf<"system"> = this.#last?.text === text ? this.#last : { id: SYSTEM_PROMPT_ID, type: "system", role: "system", text, metadata: {} };
      this.#last = system;
      context.report.synthesize(system, `system prompt merged from ${parts.length} part(s): ${parts.map((part) => part.id).join(", ")}`);
      return [system, ...items];
    });
  }
}
