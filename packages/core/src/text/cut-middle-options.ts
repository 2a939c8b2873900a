// cutMiddle's options, checked. A build cuts thousands of tool results, each with the options of its
// strategy, and a zod parse per call cost more than the rest of the check: options that are plainly
// valid are read by hand, and anything else goes through the schema, which says what is wrong.
import { z } from "zod";
import { parsePluginOptions } from "../plugins/parse-plugin-options.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import type { CutMiddleOptions } from "./cut-middle.js";

export const CUT_MIDDLE = "cutMiddle";

export const cutMiddleOptionsSchema = z
  .object({
    maxTokens: z.number().int().nonnegative().optional(),
    maxChars: z.number().int().nonnegative().optional(),
    tokenizer: z
      .custom<Tokenizer>((value) => typeof value === "object" && value !== null && typeof (value as Tokenizer).count === "function", {
        message: "expected a Tokenizer (an object with count(text))",
      })
      .optional(),
    headShare: z.number().min(0).max(1).default(0.5),
    textTokens: z.number().int().nonnegative().optional(),
  })
  .superRefine((options, context) => {
    if (options.maxTokens === undefined && options.maxChars === undefined) {
      context.addIssue({ code: "custom", path: ["maxTokens"], message: "give maxTokens, maxChars or both" });
    }
    if (options.maxTokens !== undefined && options.tokenizer === undefined) {
      context.addIssue({ code: "custom", path: ["tokenizer"], message: "maxTokens needs a tokenizer to count with" });
    }
  });

export type CheckedCutMiddleOptions = z.output<typeof cutMiddleOptionsSchema>;

/** What the schema gives for `options` (the same fields and values); @throws PluginOptionsError as the schema does. */
export function readCutMiddleOptions(options: CutMiddleOptions): CheckedCutMiddleOptions {
  if (typeof options === "object" && options !== null) {
    const { maxTokens, maxChars, tokenizer, headShare, textTokens } = options as Record<keyof CutMiddleOptions, unknown>;
    if (
      isCount(maxTokens) &&
      isCount(maxChars) &&
      isCount(textTokens) &&
      (maxTokens !== undefined || maxChars !== undefined) &&
      (tokenizer === undefined ? maxTokens === undefined : isTokenizer(tokenizer)) &&
      (headShare === undefined || (typeof headShare === "number" && headShare >= 0 && headShare <= 1))
    ) {
      return { maxTokens, maxChars, tokenizer, headShare: headShare ?? 0.5, textTokens } as CheckedCutMiddleOptions;
    }
  }
  return parsePluginOptions(CUT_MIDDLE, cutMiddleOptionsSchema, options);
}

/** z.number().int().nonnegative().optional(): a safe integer, 0 or more. */
function isCount(value: unknown): value is number | undefined {
  return value === undefined || (typeof value === "number" && Number.isSafeInteger(value) && value >= 0);
}

function isTokenizer(value: unknown): value is Tokenizer {
  return typeof value === "object" && value !== null && typeof (value as Tokenizer).count === "function";
}
