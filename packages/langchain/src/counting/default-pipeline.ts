// The pipeline the trim drop-in and the middleware build with when the caller gives none: the
// LangChain renderer, stored system messages kept in the prompt (LangChain sends them, so dropping
// them would change what the model is told), and compression when asked for.
import { CompressionPlugin, type CompressionPluginOptions } from "@ctxpipe/compression";
import { createPipeline, InsertSystemPlugin, type Pipeline, type PipelinePlugin } from "@ctxpipe/core";
import { LangChainRendererPlugin, type LangChainRendererPluginOptions } from "../renderer/langchain-renderer-plugin.js";

export interface DefaultPipelineOptions {
  readonly compression: CompressionPluginOptions | false;
  readonly renderer?: LangChainRendererPluginOptions | undefined;
  readonly plugins?: ReadonlyArray<PipelinePlugin> | undefined;
}

export function createLangChainPipeline(options: DefaultPipelineOptions): Pipeline {
  return createPipeline({
    plugins: [
      // Leading stored system messages join the prompt after the composed text; later ones the renderer merges.
      new InsertSystemPlugin({ storedSystemMessages: "prompt" }),
      new LangChainRendererPlugin(options.renderer),
      ...(options.compression === false ? [] : [new CompressionPlugin(options.compression)]),
      ...(options.plugins ?? []),
    ],
  });
}
