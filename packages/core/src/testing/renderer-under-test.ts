// The renderer a check builds with: its name, the plugins that provide it and the build's options, and
// the one pipeline the check's builds share (pipelines are reusable, and reuse is what applications do).
import { CtxpipeError } from "../errors/ctxpipe-error.js";
import { ERROR_CODES } from "../errors/error-codes.js";
import type { ItemInput } from "../model/item.js";
import type { BuildOptions } from "../pipeline/build-options.js";
import type { BuildResult } from "../pipeline/build-result.js";
import type { PipelinePlugin } from "../pipeline/pipeline-hooks.js";
import { createPipeline, type Pipeline } from "../pipeline/pipeline.js";
import { VALIDATION_RULES } from "../plugins/validate-plugin.js";
import type { RendererName, RendererOutputMap } from "../spec/renderer-output-map.js";
import { wordTokenizer } from "./word-tokenizer.js";

export interface RendererUnderTest<R extends RendererName> {
  /** The renderer's name, as `build()` takes it. */
  readonly renderer: R;
  /** The plugin (or plugins) that provide the renderer; none for core's default "openai". */
  readonly plugins?: PipelinePlugin | ReadonlyArray<PipelinePlugin>;
  /**
   * Options of every build besides the renderer, e.g. the `model` the rules depend on. The tokenizer
   * defaults to `wordTokenizer`, the system prompt to one short sentence.
   */
  readonly build?: Omit<BuildOptions<R>, "renderer">;
}

export function pipelineFor<R extends RendererName>(subject: RendererUnderTest<R>): Pipeline {
  const plugins = subject.plugins === undefined ? [] : Array.isArray(subject.plugins) ? subject.plugins : [subject.plugins as PipelinePlugin];
  return createPipeline({ plugins });
}

export function buildFor<R extends RendererName>(pipeline: Pipeline, subject: RendererUnderTest<R>, items: ReadonlyArray<ItemInput>): Promise<BuildResult<RendererOutputMap[R]>> {
  return pipeline.build<R>(items, { tokenizer: wordTokenizer, system: "You are a careful engineer.", ...subject.build, renderer: subject.renderer } as BuildOptions<R>);
}

/**
 * Whether an error is the refusal of an input with nothing a model could be sent (rule NOT_EMPTY):
 * the right answer to such an input, not a failure. Checked by code, not `instanceof`, so it holds
 * across duplicate copies of core.
 */
export function isEmptyHistoryRefusal(error: unknown): boolean {
  if (!CtxpipeError.isInstance(error) || error.code !== ERROR_CODES.CONTEXT_INVALID) return false;
  const issues = (error as CtxpipeError & { issues?: ReadonlyArray<{ rule: string }> }).issues ?? [];
  return issues.length > 0 && issues.every((issue) => issue.rule === VALIDATION_RULES.NOT_EMPTY);
}

export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return CtxpipeError.isInstance(error) ? `${error.name} ${error.code}: ${error.message}` : `${error.name}: ${error.message}`;
}
