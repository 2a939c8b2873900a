// The pipeline the CLI builds with: every renderer (so --provider only picks one), the model's
// tokenizer, the system prompt composer when a mode is given, and the compression chain asked for.
import { CompressionPlugin } from "@ctxpipe/compression";
import { createPipeline, InsertSystemPlugin, type Pipeline, type PipelinePlugin, STAGE, STAGE_LABELS, STAGES } from "@ctxpipe/core";
import { AnthropicMessagesRendererPlugin, GeminiRendererPlugin, OpenAIResponsesRendererPlugin } from "@ctxpipe/renderers";
import { SECTION_SEPARATOR, systemPromptPlugins } from "@ctxpipe/system-prompt";
import { TokenizerPlugin } from "@ctxpipe/tokenizers";
import { xmlRendererPlugins } from "@ctxpipe/xml-renderer";
import type { BuildCommandOptions } from "../args/cli-options.js";
import { extractiveSummarizer } from "../summarize/extractive-summarizer.js";
import { DEFAULT_SUMMARIZER_MODEL, openAISummarizer } from "../summarize/openai-summarizer.js";

/** Tells the progress display which stage is running. */
class StageProgressPlugin implements PipelinePlugin {
  readonly name = "CliProgressPlugin";
  readonly #onStage: (stage: string) => void;

  constructor(onStage: (stage: string) => void) {
    this.#onStage = onStage;
  }

  apply(pipeline: Parameters<PipelinePlugin["apply"]>[0]): void {
    for (const stage of STAGES) {
      if (stage === "render" || stage === "validate") continue;
      pipeline.hooks[stage].tap({ name: this.name, stage: STAGE.FIRST - 1 }, () => {
        this.#onStage(STAGE_LABELS[stage]);
        return undefined;
      });
    }
  }
}

export interface CliPipelineSettings {
  /** Where OPENAI_BASE_URL and OPENAI_API_KEY are read for --summarizer openai. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The createdAt of summary records made in the build. The CLI passes the newest message's time, so
   * the same conversation always gives the same output. Default: the clock.
   */
  readonly now?: (() => number) | undefined;
  readonly onStage?: (stage: string) => void;
}

export function createCliPipeline(options: BuildCommandOptions, settings: CliPipelineSettings): Pipeline {
  const { env, now, onStage } = settings;
  const plugins: PipelinePlugin[] = [
    new TokenizerPlugin(options.fallbackEncoding === undefined ? {} : { fallback: options.fallbackEncoding }),
    new OpenAIResponsesRendererPlugin(),
    new AnthropicMessagesRendererPlugin(),
    new GeminiRendererPlugin(),
  ];
  // The XML renderer keeps stored system messages (they are the SYSTEM chunks of its XML chunk
  // transcript): only for --provider xml.
  // Each pair brings its own InsertSystemPlugin; with both, one plugin must do both jobs (the composer's
  // separator, the XML transcript's stored SYSTEM chunks), or the second would drop the first's prompt.
  const [xmlRenderer, xmlInsertSystem] = xmlRendererPlugins();
  const [composer, composerInsertSystem] = systemPromptPlugins();
  if (options.provider === "xml" && options.mode !== undefined) {
    plugins.push(xmlRenderer, composer, new InsertSystemPlugin({ separator: SECTION_SEPARATOR, storedSystemMessages: "keep" }));
  } else if (options.provider === "xml") {
    plugins.push(xmlRenderer, xmlInsertSystem);
  } else if (options.mode !== undefined) {
    plugins.push(composer, composerInsertSystem);
  }
  if (options.compression !== false) {
    const summarizer = options.summarizer === "openai" ? openAISummarizer(options.summarizerModel ?? DEFAULT_SUMMARIZER_MODEL, env) : extractiveSummarizer;
    const strategies = options.compression.map((name) => (name === "summarize" && now !== undefined ? { type: name, now } : name));
    plugins.push(new CompressionPlugin({ strategies, summarizer }));
  }
  if (onStage !== undefined) plugins.push(new StageProgressPlugin(onStage));
  return createPipeline({ plugins });
}
