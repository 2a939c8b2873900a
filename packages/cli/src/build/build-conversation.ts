// Runs the pipeline over the loaded input the way `ctxpipe build` and `ctxpipe inspect` both do, and
// turns the library's typed failures into the CLI's: rejected input (exit 2) names the file, the line,
// the message id and the field.
import { BudgetExceededError, type BuildOptions, type BuildResult, ContextValidationError, InvalidInputError, type Item, type Pipeline } from "@ctxpipe/core";
import { SystemPromptInputError } from "@ctxpipe/system-prompt";
import { type ModelDefaults, UnknownModelError } from "@ctxpipe/tokenizers";
import type { BuildCommandOptions } from "../args/cli-options.js";
import { CliInputError, type CliInputProblem } from "../cli/cli-input-error.js";
import { problemsOf } from "../input/import-conversation.js";
import { cliBudgetOf, describeBudget, unknownModelProblem } from "./cli-budget-of.js";
import type { BuildInput } from "./load-build-input.js";
import { providerRequest } from "./provider-request.js";

export interface PreviousTurn {
  /** The build of the previous model call's conversation (before the newest assistant message), when there was one. */
  readonly result: BuildResult<unknown> | undefined;
  /** Why there is none, when there is none. */
  readonly note: string | undefined;
}

export interface CliBuild {
  readonly input: BuildInput;
  readonly options: BuildCommandOptions;
  readonly buildOptions: BuildOptions;
  /** The budget's figures and where each came from (the flags, or the model's defaults). */
  readonly budget: ModelDefaults;
  readonly result: BuildResult<unknown>;
  /** The provider's own request body (see providerRequest). */
  readonly request: unknown;
  /** The previous model call's build, made first on the same pipeline when the cache break point was asked for. */
  readonly previous: PreviousTurn | undefined;
}

export function buildOptionsOf(options: BuildCommandOptions, input: BuildInput, budget: ModelDefaults = cliBudgetOf(options)): BuildOptions {
  return {
    renderer: options.provider,
    model: options.model,
    maxTokens: budget.maxTokens,
    reserveOutputTokens: budget.reserveOutputTokens,
    ...(input.system.length === 0 ? {} : { system: input.system }),
    ...(input.tools === undefined ? {} : { tools: input.tools }),
    ...(input.summaries.length === 0 ? {} : { summaries: input.summaries }),
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    ...(input.runContext === undefined ? {} : { runContext: input.runContext as BuildOptions["runContext"] }),
    ...(input.agent === undefined ? {} : { agent: input.agent as BuildOptions["agent"] }),
    ...(options.compression === false ? { compression: false } : {}),
    ...(options.promptCacheKey === undefined ? {} : { promptCacheKey: options.promptCacheKey }),
    order: input.order,
  } as BuildOptions;
}

/**
 * What the previous model call was built from: everything before the newest assistant message (or
 * persisted failure), which that call produced. Undefined when the model has not answered yet.
 */
export function previousCallOf(items: ReadonlyArray<Item>): ReadonlyArray<Item> | undefined {
  for (let index = items.length - 1; index >= 0; index--) {
    const type = items[index]?.type;
    if (type !== "assistant" && type !== "error") continue;
    const before = items.slice(0, index);
    return before.some((item) => item.type === "user") ? before : undefined;
  }
  return undefined;
}

export async function buildConversation(pipeline: Pipeline, options: BuildCommandOptions, input: BuildInput, compareWithPreviousTurn: boolean): Promise<CliBuild> {
  const budget = cliBudgetOf(options);
  const buildOptions = buildOptionsOf(options, input, budget);
  let previous: PreviousTurn | undefined;
  if (compareWithPreviousTurn) {
    const before = previousCallOf(input.items);
    if (before === undefined) {
      previous = { result: undefined, note: "not compared: the model has not answered in this conversation yet, so there is no earlier request" };
    } else {
      try {
        previous = { result: await pipeline.build(before, buildOptions), note: undefined };
      } catch (error) {
        previous = { result: undefined, note: `not compared: the request of the previous model call (the conversation before its newest assistant message) could not be built: ${(error as Error).message}` };
      }
    }
  }
  const result = await runBuild(pipeline, input, buildOptions, options, budget);
  return { input, options, buildOptions, budget, result, request: providerRequest(options.provider, result.request), previous };
}

async function runBuild(pipeline: Pipeline, input: BuildInput, buildOptions: BuildOptions, options: BuildCommandOptions, budget: ModelDefaults): Promise<BuildResult<unknown>> {
  try {
    return await pipeline.build(input.items, buildOptions);
  } catch (error) {
    throw rejected(error, input, options, budget) ?? error;
  }
}

/** The CLI's form of a failure that means "this input cannot be built", or undefined for any other. */
function rejected(error: unknown, input: BuildInput, options: BuildCommandOptions, budget: ModelDefaults): CliInputError | undefined {
  if (error instanceof UnknownModelError) return unknownModelProblem(error);
  if (error instanceof BudgetExceededError) {
    const what = error.detail === undefined ? "The request does not fit the budget" : "The budget cannot hold the newest user turn";
    return new CliInputError([{ source: input.source, message: `${what} (${describeBudget(budget, options)}): ${error.message}` }], { cause: error });
  }
  if (error instanceof SystemPromptInputError) {
    return new CliInputError(promptInputProblems(error, options), { cause: error });
  }
  if (error instanceof InvalidInputError) {
    return new CliInputError(problemsOf(error, input.locations, input.source), { cause: error });
  }
  if (error instanceof ContextValidationError) return new CliInputError([{ source: input.source, message: error.message }], { cause: error });
  return undefined;
}

/** zod's prettified text is "✖ message" lines, each followed by "  → at path": pair them back up. */
function promptInputProblems(error: SystemPromptInputError, options: BuildCommandOptions): CliInputProblem[] {
  const problems: CliInputProblem[] = [];
  const lines = error.message.split("\n");
  lines.forEach((line, index) => {
    const message = /^\s*✖ (.*)$/.exec(line)?.[1];
    if (message === undefined) return;
    const path = /^\s*→ at (.*)$/.exec(lines[index + 1] ?? "")?.[1] ?? "";
    const [head, ...rest] = path.split(".");
    const source = head === "runContext" ? `--run-context ${options.runContext}` : head === "agent" ? `--agent ${options.agent}` : "command line";
    problems.push({ source, ...(rest.length === 0 ? {} : { field: rest.join(".") }), message });
  });
  return problems.length > 0 ? problems : [{ source: "command line", message: error.message }];
}
