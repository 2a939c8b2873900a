// Default validate stage: checks the item list against a rule table before anything is rendered
// (itemRules by default: the message builder's checks and the portable subset every provider
// accepts). Each renderer then checks its own request against its provider's table
// (hooks.validateRequest).
import { z } from "zod";
import type { Item } from "../model/item.js";
import type { PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import type { Rule } from "../spec/rule.js";
import { checkRules } from "../validation/check-rules.js";
import { ItemRuleChecker } from "../validation/item-rule-checker.js";
import { itemRules } from "../validation/item-rules.js";
import { parsePluginOptions } from "./parse-plugin-options.js";

const PLUGIN_NAME = "ValidatePlugin";

const isRule = (value: unknown): value is Rule<ReadonlyArray<Item>> => {
  const rule = value as Partial<Rule<unknown>> | null;
  return typeof rule === "object" && rule !== null && typeof rule.id === "string" && (rule.level === "error" || rule.level === "strict") && typeof rule.check === "function";
};

const validatePluginOptionsSchema = z.strictObject({
  /** The rule table; default itemRules. Extend it with `[...itemRules, myRule]`. */
  rules: z.array(z.custom<Rule<ReadonlyArray<Item>>>(isRule, "must be a rule { id, level, requires, check }")).optional(),
  stage: z.number().default(STAGE.DEFAULT),
});

export type ValidatePluginOptions = z.input<typeof validatePluginOptionsSchema>;

/** Ids of the rules in itemRules, for `validation: { ignore: [...] }` and for matching issues. */
export const VALIDATION_RULES = {
  NOT_EMPTY: "NOT_EMPTY",
  STARTS_WITH_TOOL_RESULT: "STARTS_WITH_TOOL_RESULT",
  TOOL_RESULT_WITHOUT_CALL: "TOOL_RESULT_WITHOUT_CALL",
  TOOL_CALL_WITHOUT_RESULT: "TOOL_CALL_WITHOUT_RESULT",
  DUPLICATE_TOOL_RESULT: "DUPLICATE_TOOL_RESULT",
  DUPLICATE_CALL_ID: "DUPLICATE_CALL_ID",
  INVALID_CALL_ID: "INVALID_CALL_ID",
  INVALID_TOOL_NAME: "INVALID_TOOL_NAME",
  ARGUMENTS_NOT_OBJECT: "ARGUMENTS_NOT_OBJECT",
  BLANK_TEXT: "BLANK_TEXT",
  LONE_SURROGATE: "LONE_SURROGATE",
  STRING_TOO_LONG: "STRING_TOO_LONG",
  STARTS_WITH_ASSISTANT: "STARTS_WITH_ASSISTANT",
  ENDS_WITH_ASSISTANT: "ENDS_WITH_ASSISTANT",
} as const;

export class ValidatePlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof validatePluginOptionsSchema>;

  constructor(options: ValidatePluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, validatePluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    const rules = this.#options.rules ?? itemRules;
    // The built-in rules resume from the last build's list; rules of the user's own run in full.
    const checker = new ItemRuleChecker();
    pipeline.hooks.validate.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => {
      const scanned = checker.check(rules, items);
      for (const rule of rules) {
        for (const violation of scanned.get(rule) ?? checkRules([rule], items, { model: context.model })) context.issue(violation);
      }
    });
  }
}
