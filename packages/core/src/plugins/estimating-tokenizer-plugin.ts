// Default tokenizer: the chars/4 estimate, offered last so any tokenizer plugin takes precedence.
import type { PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import { estimatingTokenizer } from "../tokenizers/estimating-tokenizer.js";

const PLUGIN_NAME = "EstimatingTokenizerPlugin";

export class EstimatingTokenizerPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;

  apply(pipeline: PluginHost): void {
    pipeline.hooks.tokenizer.tap({ name: PLUGIN_NAME, stage: STAGE.LAST }, () => estimatingTokenizer);
  }
}
