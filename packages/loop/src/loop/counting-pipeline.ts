// The pipeline a loop makes for each conversation when it knows the model: every build counts with the
// conversation's current tokenizer and gets the model's budget, and an approximation learns from the
// input tokens each call reports, so the conversation's next builds count closer to the provider. With
// persisted counts, the first build loads the counts the store kept and every build keeps the new ones.
import { type BuildOptions, type BuildResult, type ItemInput, Pipeline, type PipelineOptions, type RendererName, type RendererOutputMap} from "@ctxpipe/core";
import type { ModelTokenizer } from "@ctxpipe/tokenizers";
import type { LoopCounting } from "./loop-token-counting.js";
import type { PersistedTokenCounts } from "./persisted-token-counts.js";

/** The tokenizer a loop counts a conversation with, as a result shows it. */
export interface LoopTokenizerInfo {
  /** e.g. "o200k_base", or "o200k_base × 1.187 + 10% (approximation for "claude-sonnet-4")". */
  readonly name: string;
  /** Whether counts equal the provider's. */
  readonly exact: boolean;
  /** Approximations: the provider tokens per base-encoding token learnt so far (a new tokenizer's starting factor). */
  readonly factor?: number;
}

export class CountingPipeline extends Pipeline {
  #tokenizer: ModelTokenizer;
  readonly #counting: LoopCounting;
  /** The build options the budget was resolved from: a build that gives them gets the resolved figures. */
  readonly #given: Pick<BuildOptions, "maxTokens" | "reserveOutputTokens">;
  /** Which tokenizer counted each request, so usage calibrates the one that made the count. */
  readonly #countedWith = new WeakMap<object, ModelTokenizer>();
  /** The conversation's counts kept in the store; undefined when the store keeps none. */
  readonly #persisted: PersistedTokenCounts | undefined;

  constructor(
    options: PipelineOptions,
    counting: LoopCounting,
    given: Pick<BuildOptions, "maxTokens" | "reserveOutputTokens"> = {},
    persisted?: PersistedTokenCounts,
  ) {
    super(options);
    this.#counting = counting;
    // Counting through the persisted counts' memo counts the same, and never tokenizes a text twice.
    this.#tokenizer = persisted?.tokenizer ?? counting.tokenizer;
    this.#given = given;
    this.#persisted = persisted;
  }

  /** The tokenizer the next build counts with. */
  get tokenizer(): ModelTokenizer {
    return this.#tokenizer;
  }

  get tokenizerInfo(): LoopTokenizerInfo {
    const tokenizer = this.#tokenizer;
    return { name: tokenizer.name, exact: tokenizer.exact, ...(tokenizer.exact ? {} : { factor: tokenizer.factor }) };
  }

  override build<R extends RendererName = "openai">(items: ReadonlyArray<ItemInput>, options: BuildOptions<R> = {}): Promise<BuildResult<RendererOutputMap[R]>> {
    const { budget } = this.#counting;
    // A tokenizer given in the build options is the caller's choice: it counts, and nothing calibrates it.
    const tokenizer = options.tokenizer === undefined ? this.#tokenizer : undefined;
    const maxTokens = options.maxTokens === undefined || options.maxTokens === this.#given.maxTokens ? budget.maxTokens : options.maxTokens;
    const reserveOutputTokens =
      options.reserveOutputTokens === undefined || options.reserveOutputTokens === this.#given.reserveOutputTokens ? budget.reserveOutputTokens : options.reserveOutputTokens;
    const resolved = { ...options, maxTokens, reserveOutputTokens, ...(tokenizer === undefined ? {} : { tokenizer }) };
    if (tokenizer === undefined) return super.build(items, resolved);
    const persisted = this.#persisted;
    if (persisted === undefined) return super.build(items, resolved).then((result) => this.#counted(result, tokenizer));
    return persisted.ready().then(async () => {
      try {
        return this.#counted(await super.build(items, resolved), tokenizer);
      } finally {
        // A build that failed (over budget) counted texts all the same.
        await persisted.save();
      }
    });
  }

  #counted<T extends BuildResult<unknown>>(result: T, tokenizer: ModelTokenizer): T {
    this.#countedWith.set(result, tokenizer);
    return result;
  }

  /**
   * Learns from the input tokens the provider reported for a request this pipeline built. Exact
   * tokenizers never change; an approximation is replaced by one calibrated on the figures. A report
   * calibration refuses (a ratio no tokenizer could have, e.g. a gateway that adds a prompt of its
   * own) teaches nothing: the answer that came with it must still be persisted.
   */
  learn(build: BuildResult<unknown>, reported: number): void {
    const tokenizer = this.#countedWith.get(build);
    // Only the tokenizer still in use learns: a build that raced an earlier calibration counted with an older factor.
    if (tokenizer === undefined || tokenizer.exact || tokenizer !== this.#tokenizer) return;
    try {
      this.#tokenizer = tokenizer.calibrate({ counted: build.tokenCount, reported });
    } catch {
      // Figures that cannot describe the same request: keep counting as before.
    }
  }
}
