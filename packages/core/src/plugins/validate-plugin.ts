// Default validate stage, basic version (seed 004): the context is not empty, does not start with a
// tool result, and every tool call is answered by results that directly follow it, once each.
import { z } from "zod";
import type { PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import { parsePluginOptions } from "./parse-plugin-options.js";

const PLUGIN_NAME = "ValidatePlugin";

const validatePluginOptionsSchema = z.strictObject({
  stage: z.number().default(STAGE.DEFAULT),
});

export type ValidatePluginOptions = z.input<typeof validatePluginOptionsSchema>;

/** Rule ids reported by ValidatePlugin. */
export const VALIDATION_RULES = {
  NOT_EMPTY: "NOT_EMPTY",
  STARTS_WITH_TOOL_RESULT: "STARTS_WITH_TOOL_RESULT",
  TOOL_RESULT_WITHOUT_CALL: "TOOL_RESULT_WITHOUT_CALL",
  TOOL_CALL_WITHOUT_RESULT: "TOOL_CALL_WITHOUT_RESULT",
  DUPLICATE_TOOL_RESULT: "DUPLICATE_TOOL_RESULT",
} as const;

export class ValidatePlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof validatePluginOptionsSchema>;

  constructor(options: ValidatePluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, validatePluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.validate.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => {
      const conversation = items.filter((item) => item.role !== "system");
      if (conversation.length === 0) {
        const message = items.length === 0 ? "there is nothing to send" : "there is nothing to send besides system messages";
        context.issue({ rule: VALIDATION_RULES.NOT_EMPTY, message });
        return;
      }
      const first = conversation[0]!;
      if (first.type === "tool-result") {
        context.issue({ rule: VALIDATION_RULES.STARTS_WITH_TOOL_RESULT, message: "the conversation starts with a tool result", item: first, position: items.indexOf(first) });
      }

      // Calls of the assistant message whose results are expected next, and those answered so far.
      let open: { callIds: Set<string>; answered: Set<string>; position: number; id: string } | undefined;
      const closeOpen = () => {
        if (open === undefined) return;
        for (const callId of open.callIds) {
          if (open.answered.has(callId)) continue;
          context.issue({
            rule: VALIDATION_RULES.TOOL_CALL_WITHOUT_RESULT,
            message: `call "${callId}" is not answered by a tool result right after it`,
            item: items[open.position]!,
            position: open.position,
          });
        }
        open = undefined;
      };
      items.forEach((item, position) => {
        if (item.type === "tool-result") {
          if (open === undefined || !open.callIds.has(item.callId)) {
            const message = `result of call "${item.callId}" does not follow the assistant message that made the call`;
            context.issue({ rule: VALIDATION_RULES.TOOL_RESULT_WITHOUT_CALL, message, item, position });
          } else if (open.answered.has(item.callId)) {
            context.issue({ rule: VALIDATION_RULES.DUPLICATE_TOOL_RESULT, message: `call "${item.callId}" is answered twice`, item, position });
          } else {
            open.answered.add(item.callId);
          }
          return;
        }
        // Thinking is the assistant's own reasoning, not a message: it does not separate a call from its results.
        if (item.type === "thinking") return;
        closeOpen();
        if (item.type === "assistant" && item.toolCalls.length > 0) {
          open = { callIds: new Set(item.toolCalls.map((call) => call.id)), answered: new Set(), position, id: item.id };
        }
      });
      closeOpen();
    });
  }
}
