// The provider-valid promise for any renderer: a conversation is built through a pipeline with the
// renderer, and the rendered request must break no rule of the renderer's table. Refusing an input
// with nothing to send (NOT_EMPTY) is right; any other error is a failure.
import type { ItemInput } from "../model/item.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import type { RendererName, RendererOutputMap } from "../spec/renderer-output-map.js";
import type { Rule } from "../spec/rule.js";
import { checkRules } from "../validation/check-rules.js";
import { buildFor, describeError, isEmptyHistoryRefusal, pipelineFor, type RendererUnderTest } from "./renderer-under-test.js";

export interface RendererRulesCheck<R extends RendererName> extends RendererUnderTest<R> {
  /** The renderer's rule table (the one its `validateRequest` tap runs); "error" and "strict" rules alike must hold. */
  readonly rules: ReadonlyArray<Rule<RendererOutputMap[R]>>;
}

/**
 * What is wrong with the request the renderer builds from `items`, in words; empty when nothing is.
 * Pass the same `pipeline` to several calls to test reuse across builds, as an application's loop does.
 */
export async function checkRendererRules<R extends RendererName>(check: RendererRulesCheck<R>, items: ReadonlyArray<ItemInput>, pipeline: Pipeline = pipelineFor(check)): Promise<string[]> {
  let request: RendererOutputMap[R];
  try {
    ({ request } = await buildFor(pipeline, check, items));
  } catch (error) {
    return isEmptyHistoryRefusal(error) ? [] : [`the build failed: ${describeError(error)}`];
  }
  return checkRules(check.rules, request, { model: check.build?.model }).map(
    (violation) => `${violation.rule} [${violation.level}] at ${violation.path ?? "?"}: ${violation.message}`,
  );
}
