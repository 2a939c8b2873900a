// The budget of `ctxpipe build` and `ctxpipe inspect`: @ctxpipe/tokenizers' modelDefaults, the resolver
// the loops use too, given --max-tokens, --reserve-output and --fallback-encoding; its refusals come
// back naming the flags.
import { PluginOptionsError } from "@ctxpipe/core";
import { type ModelDefaults, modelDefaults, outputReserveReason, UnknownModelError } from "@ctxpipe/tokenizers";
import type { BuildCommandOptions } from "../args/cli-options.js";
import { CliInputError, type CliInputProblem } from "../cli/cli-input-error.js";

const FLAGS: Readonly<Record<string, string>> = { maxTokens: "--max-tokens", reserveOutputTokens: "--reserve-output", fallback: "--fallback-encoding", model: "--model" };

const count = (value: number) => value.toLocaleString("en-US");

export function unknownModelProblem(error: UnknownModelError): CliInputError {
  const close = error.suggestions.length === 0 ? "" : ` Close known names: ${error.suggestions.join(", ")}.`;
  return new CliInputError(
    [{ source: "command line", field: "--model", message: `unknown model "${error.model}": its tokenizer and context window are not known.${close} Give a known model, or --fallback-encoding o200k_base (or cl100k_base) with --max-tokens to count with an encoding (counts flagged inexact).` }],
    { cause: error },
  );
}

/** The library's option names in a message turned into the CLI's flags. */
const withFlags = (text: string) => text.replace(/\b(maxTokens|reserveOutputTokens)\b/g, (name) => FLAGS[name]!);

/** modelDefaults' "✖ problem\n  → at field" lines, naming the flags. */
function flagProblems(error: PluginOptionsError): CliInputProblem[] {
  const lines = error.message.split("\n");
  const problems: CliInputProblem[] = [];
  lines.forEach((line, index) => {
    const message = /^\s*✖ (.*)$/.exec(line)?.[1];
    if (message === undefined) return;
    const field = /^\s*→ at (.*)$/.exec(lines[index + 1] ?? "")?.[1];
    problems.push({ source: "command line", ...(field === undefined ? {} : { field: FLAGS[field] ?? field }), message: withFlags(message) });
  });
  return problems.length > 0 ? problems : [{ source: "command line", message: error.message }];
}

/**
 * The build's maxTokens and reserveOutputTokens, and the input budget they leave: the flags when
 * given, else the model's defaults (its context window; its output limit, at most 32,000, kept for
 * the answer).
 *
 * @throws CliInputError naming --model (an unknown model without --fallback-encoding) or the flag
 *   at fault (no --max-tokens for an unknown model; a reserve that leaves the prompt no room).
 */
export function cliBudgetOf(options: BuildCommandOptions): ModelDefaults {
  try {
    return modelDefaults(options.model, {
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
      ...(options.reserveOutput === undefined ? {} : { reserveOutputTokens: options.reserveOutput }),
      ...(options.fallbackEncoding === undefined ? {} : { fallback: options.fallbackEncoding }),
    });
  } catch (error) {
    if (error instanceof UnknownModelError) throw unknownModelProblem(error);
    if (error instanceof PluginOptionsError) throw new CliInputError(flagProblems(error), { cause: error });
    throw error;
  }
}

/**
 * Where the budget's figures came from, for the inspector's budget line and the budget errors:
 * "128,000-token window of gpt-4o − 16,384 reserved for the answer (the output limit of gpt-4o)" for
 * the defaults, "6,000 budget − 1,000 reserved for the answer" for --max-tokens 6000 --reserve-output 1000.
 */
export function describeBudget(budget: ModelDefaults, options: Pick<BuildCommandOptions, "maxTokens">): string {
  const { info } = budget;
  const asked = options.maxTokens === undefined ? `${count(info?.contextWindow ?? budget.maxTokens)}-token window of ${info?.model ?? budget.model}` : `${count(options.maxTokens)} budget`;
  // modelDefaults lowers maxTokens where the model accepts less input than that leaves (GPT-5).
  const whole =
    info !== undefined && budget.maxTokens < (options.maxTokens ?? info.contextWindow)
      ? `${count(budget.maxTokens)} (the ${options.maxTokens === undefined ? asked : `--max-tokens ${count(options.maxTokens)}`}, lowered to the ${count(info.maxInputTokens)}-token input limit of ${info.model} + the reserve)`
      : asked;
  const reserve = budget.sources.reserveOutputTokens === "option" ? "" : ` (${withFlags(outputReserveReason(budget))})`;
  return `${whole} − ${count(budget.reserveOutputTokens)} reserved for the answer${reserve}`;
}
