// Builds items with a pipeline made of the default plugins plus the plugins under test, using the
// deterministic word tokenizer unless the options name another.
import type { ItemInput } from "../model/item.js";
import type { BuildOptions } from "../pipeline/build-options.js";
import type { BuildResult } from "../pipeline/build-result.js";
import type { PipelinePlugin } from "../pipeline/pipeline-hooks.js";
import { createPipeline } from "../pipeline/pipeline.js";
import type { RendererName, RendererOutputMap } from "../spec/renderer-output-map.js";
import { wordTokenizer } from "./word-tokenizer.js";

export function buildWith<R extends RendererName = "openai">(
  plugins: ReadonlyArray<PipelinePlugin>,
  items: ReadonlyArray<ItemInput>,
  options: BuildOptions<R> = {},
): Promise<BuildResult<RendererOutputMap[R]>> {
  return createPipeline({ plugins }).build(items, { tokenizer: wordTokenizer, ...options });
}
