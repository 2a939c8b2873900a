// Default repair-orphans stage, basic version: a tool result whose call is not in the context is
// dropped (seed 004), and a call that never got a result gets a synthesized result saying it was
// interrupted, so the model knows rather than the provider rejecting the request.
import { z } from "zod";
import type { Item, ItemOf } from "../model/item.js";
import type { PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import { parsePluginOptions } from "./parse-plugin-options.js";

const PLUGIN_NAME = "RepairOrphansPlugin";

const repairOrphansPluginOptionsSchema = z.strictObject({
  /** Text of the result synthesized for a call that never got one. */
  interruptedText: z.string().min(1).default("The tool call was interrupted before it returned a result."),
  stage: z.number().default(STAGE.DEFAULT),
});

export type RepairOrphansPluginOptions = z.input<typeof repairOrphansPluginOptionsSchema>;

export class RepairOrphansPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof repairOrphansPluginOptionsSchema>;

  constructor(options: RepairOrphansPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, repairOrphansPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.repairOrphans.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => {
      const calledSoFar = new Set<string>();
      const answered = new Set<string>();
      const withoutOrphans: Item[] = [];
      for (const item of items) {
        if (item.type === "assistant") for (const call of item.toolCalls) calledSoFar.add(call.id);
        if (item.type === "tool-result") {
          if (!calledSoFar.has(item.callId)) {
            context.report.drop(item, `result of call "${item.callId}", which no earlier assistant message made`);
            continue;
          }
          answered.add(item.callId);
        }
        withoutOrphans.push(item);
      }

      let changed = withoutOrphans.length !== items.length;
      const repaired: Item[] = [];
      for (let index = 0; index < withoutOrphans.length; index++) {
        const item = withoutOrphans[index]!;
        repaired.push(item);
        if (item.type !== "assistant" || item.toolCalls.every((call) => answered.has(call.id))) continue;
        // Keep the results that follow the call together, then add the missing ones after them.
        while (withoutOrphans[index + 1]?.type === "tool-result") repaired.push(withoutOrphans[++index]!);
        for (const call of item.toolCalls) {
          if (answered.has(call.id)) continue;
          answered.add(call.id);
          const result: ItemOf<"tool-result"> = {
            id: `${item.id}:interrupted:${call.id}`,
            type: "tool-result",
            role: "tool",
            callId: call.id,
            toolName: call.name,
            output: this.#options.interruptedText,
            isError: true,
            kind: call.kind,
            metadata: {},
          };
          context.report.synthesize(result, `call "${call.id}" (${call.name}) had no result`);
          repaired.push(result);
          changed = true;
        }
      }
      return changed ? repaired : undefined;
    });
  }
}
