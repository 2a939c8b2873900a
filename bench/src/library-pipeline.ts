// The library rows' pipeline: core's defaults alone, or with the compression chain the loops and the
// CLI run by default (DEFAULT_STRATEGIES, the notice on as in the loops).
import { CompressionPlugin, DEFAULT_STRATEGIES } from "@ctxpipe/compression";
import { createPipeline, type Pipeline } from "@ctxpipe/core";

export function libraryPipeline(compression: boolean): Pipeline {
  return createPipeline({ plugins: compression ? [new CompressionPlugin({ strategies: [...DEFAULT_STRATEGIES], notice: true })] : [] });
}
