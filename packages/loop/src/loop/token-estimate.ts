// How far a build's count was from what the provider reported for the same request, and the learning
// that follows: a loop's counting pipeline calibrates its approximation on the figures.
import type { BuildResult, Pipeline } from "@ctxpipe/core";
import type { ModelUsage } from "../model/model-adapter.js";
import { CountingPipeline, type LoopTokenizerInfo } from "./counting-pipeline.js";

/** One request's count against the provider's. */
export interface TokenEstimate {
  /** The build's tokenCount: the whole request, system prompt and tools included. */
  readonly counted: number;
  /** The input tokens the provider reported for that request. */
  readonly reported: number;
  /** Whether the count came from an exact tokenizer. */
  readonly exact: boolean;
  /** reported − counted: positive when the build counted too few. */
  readonly offBy: number;
  /** reported ÷ counted. */
  readonly ratio: number;
}

/**
 * Compares a build's count with the usage its call reported, and lets a loop's counting pipeline learn
 * from it. Undefined when the call reported no input tokens (a server that does not count).
 */
export function learnFromUsage(pipeline: Pipeline, build: BuildResult<unknown>, usage: ModelUsage | undefined): TokenEstimate | undefined {
  if (usage === undefined || usage.inputTokens <= 0 || build.tokenCount <= 0) return undefined;
  const counted = build.tokenCount;
  const reported = usage.inputTokens;
  if (pipeline instanceof CountingPipeline) pipeline.learn(build, reported);
  return { counted, reported, exact: build.tokenCountExact, offBy: reported - counted, ratio: reported / counted };
}

/** A result's `tokenizer`: what a loop's counting pipeline counts with now; nothing for a pipeline of the caller's. */
export function loopTokenizerOf(pipeline: Pipeline): { readonly tokenizer?: LoopTokenizerInfo } {
  return pipeline instanceof CountingPipeline ? { tokenizer: pipeline.tokenizerInfo } : {};
}
