// ctxpipe on every model call of an AI SDK agent: one pipeline per context, fed the caller's history
// before each call (through prepareStep, or a language model middleware), so every prompt the model
// receives is repaired, inside the model's budget, and explained in a report.
import { CompressionPlugin, DEFAULT_STRATEGIES } from "@ctxpipe/compression";
import { type BuildOptions, type BuildResult, createPipeline, DEFAULT_MAX_OFFLOADED_CHARS, DEFAULT_RETRIEVE_MAX_CHARS, type Item, OffloadedTextCache, type Pipeline, RETRIEVE_CONTEXT_TOOL_NAME, type ToolDefinitionInput } from "@ctxpipe/core";
import type { ApproximateTokenizer } from "@ctxpipe/tokenizers";
import type { LanguageModel, LanguageModelMiddleware, ModelMessage, SystemModelMessage } from "ai";
import { AiSdkRendererPlugin, type AiSdkRequest, importModelMessages } from "../messages/index.js";
import { AiSdkCallError } from "./ai-sdk-call-error.js";
import { type AiSdkBuildInfo, type AiSdkContextOptions, checkAiSdkContextOptions } from "./ai-sdk-context-options.js";
import { CarriedMessages } from "./carried-messages.js";
import { MessageInterner } from "./message-interner.js";
import { type ModelCounting, resolveModelCounting } from "./model-counting.js";
import type { ProviderMessage, ProviderPrompt } from "./provider-prompt.js";
import { type AiSdkRetrieveTools, retrieveContextTools } from "./retrieve-context-tool.js";
import { toProviderPrompt } from "./to-provider-prompt.js";
import { callToolDefinitions, toolSetDefinitions } from "./tool-definitions.js";

/** What prepareStep reads of its argument: ai 7 passes all of it, ai 6 no `instructions`. */
export interface AiSdkPrepareStepArgs {
  /** The messages the AI SDK would send this step. */
  readonly messages: ModelMessage[];
  /** The step's model: the budget comes from its modelId. */
  readonly model: LanguageModel;
  readonly stepNumber: number;
  readonly steps: ReadonlyArray<unknown>;
  /** The instructions (system prompt) the AI SDK would send this step; ai 7 only. */
  readonly instructions?: string | SystemModelMessage | Array<SystemModelMessage> | undefined;
}

/** What prepareStep returns: the step's messages, and its instructions when ctxpipe changed them. */
export interface AiSdkPrepareStepResult {
  /** The system prompt sent (ai 6 reads `system`), when it is not the caller's as given. */
  system?: string;
  /** The same, for ai 7 (`system` is its deprecated name); `[]` when no system prompt is sent. */
  instructions?: string | Array<SystemModelMessage>;
  messages: ModelMessage[];
}

export interface AiSdkContext {
  /**
   * Pass as `prepareStep` to generateText, streamText or a ToolLoopAgent: builds the step's messages
   * (and system prompt) from its history.
   */
  readonly prepareStep: (args: AiSdkPrepareStepArgs) => Promise<AiSdkPrepareStepResult>;
  /** Pass to wrapLanguageModel({ model, middleware }): builds every call's prompt in transformParams. */
  readonly middleware: LanguageModelMiddleware;
  /** The last build: request, tokenCount, report (what was dropped, repaired, compressed and why). */
  readonly lastBuild: BuildResult<AiSdkRequest> | undefined;
  /**
   * `{ retrieve_context }`: spread it into generateText's tools so the model can read back what a
   * build cut or cleared, by the handle its marker names. Once read, prepareStep counts its definition
   * in the budget (the middleware counts the call's tools as they are).
   */
  readonly tools: AiSdkRetrieveTools;
}

/** The id prefix of the caller's instructions, imported as system items ahead of the messages. */
const INSTRUCTIONS_PREFIX = "instructions-";

function modelIdOf(model: LanguageModel | { readonly modelId?: unknown } | undefined, where: "prepareStep" | "middleware", countAs: string | undefined): string {
  if (typeof model === "string" && model.trim() !== "") return model;
  if (typeof model === "object" && model !== null && typeof model.modelId === "string" && model.modelId.trim() !== "") return model.modelId;
  // countAs says how to count whatever the model is.
  if (countAs !== undefined) return typeof model === "object" && model !== null && typeof model.modelId === "string" ? model.modelId : "";
  throw new AiSdkCallError(where, "a model", "a language model with a modelId (or set countAs)", model);
}

function instructionMessages(instructions: AiSdkPrepareStepArgs["instructions"]): SystemModelMessage[] {
  if (instructions === undefined) return [];
  if (typeof instructions === "string") return instructions === "" ? [] : [{ role: "system", content: instructions }];
  return Array.isArray(instructions) ? instructions : [instructions];
}

/** The system text the pipeline makes of stored system messages: joined by a blank line. */
function joinedSystem(messages: ReadonlyArray<{ readonly content: unknown }>): string | undefined {
  return messages.length === 0 ? undefined : messages.map((message) => String(message.content)).join("\n\n");
}

class AiSdkContextImpl implements AiSdkContext {
  readonly #options: AiSdkContextOptions;
  readonly #pipeline: Pipeline;
  readonly #counting = new Map<string, ModelCounting>();
  readonly #carried = new CarriedMessages();
  readonly #interner = new MessageInterner();
  // Which counting each build used, so the input tokens the provider reports for its request can
  // calibrate an approximation (Claude, Gemini, a fallback) for the next builds.
  readonly #countedWith = new WeakMap<object, { readonly key: string; readonly counting: ModelCounting }>();
  // prepareStep's last build per run (the AI SDK passes one `steps` array through a run), and the
  // middleware's per call (its transformed params), for the usage reported after the call.
  readonly #runBuilds = new WeakMap<object, BuildResult<AiSdkRequest>>();
  readonly #callBuilds = new WeakMap<object, BuildResult<AiSdkRequest>>();
  // The last instructions string seen and its message: the same object every step, so it is imported once.
  #instructions: { text: string; messages: SystemModelMessage[] } | undefined;
  #lastBuild: BuildResult<AiSdkRequest> | undefined;
  readonly #offloaded: OffloadedTextCache;
  readonly #tools: AiSdkRetrieveTools;
  // Set when `tools` is read: from then on prepareStep (which is not shown the call's tools) counts
  // retrieve_context's definition, as the caller is about to send it.
  #toolsGiven = false;

  readonly prepareStep: AiSdkContext["prepareStep"];
  readonly middleware: LanguageModelMiddleware;

  constructor(options: AiSdkContextOptions | undefined) {
    this.#options = checkAiSdkContextOptions(options);
    this.#pipeline = this.#options.pipeline ?? this.#createPipeline();
    this.#offloaded = new OffloadedTextCache(this.#options.maxOffloadedChars ?? DEFAULT_MAX_OFFLOADED_CHARS);
    this.#tools = retrieveContextTools(
      async (handle) => this.#offloaded.get(handle) ?? (await this.#options.loadOffloaded?.(handle)),
      () => this.#options.retrieveMaxChars ?? retrieveMaxChars(this.#lastBuild),
    );
    this.prepareStep = (args) => this.#prepareStep(args);
    this.middleware = {
      specificationVersion: "v4",
      transformParams: async ({ params, model, type }) => {
        const { prompt, build } = await this.#transformPrompt(params?.prompt, model, type, params?.tools, params?.maxOutputTokens);
        const transformed = { ...params, prompt };
        this.#callBuilds.set(transformed, build);
        return transformed;
      },
      wrapGenerate: async ({ doGenerate, params }) => {
        const result = await doGenerate();
        this.#learn(this.#callBuilds.get(params), result.usage?.inputTokens?.total);
        return result;
      },
      wrapStream: async ({ doStream, params }) => {
        const result = await doStream();
        const build = this.#callBuilds.get(params);
        if (build === undefined) return result;
        const learn = (total: number | undefined) => this.#learn(build, total);
        const stream = result.stream.pipeThrough(
          new TransformStream({
            transform(part, controller) {
              if (part.type === "finish") learn(part.usage?.inputTokens?.total);
              controller.enqueue(part);
            },
          }),
        );
        return { ...result, stream };
      },
    };
  }

  get lastBuild(): BuildResult<AiSdkRequest> | undefined {
    return this.#lastBuild;
  }

  get tools(): AiSdkRetrieveTools {
    this.#toolsGiven = true;
    return this.#tools;
  }

  /** The tools prepareStep counts: the caller's, and retrieve_context once `tools` was read (once, whichever way it came). */
  async #stepTools(): Promise<ReadonlyArray<ToolDefinitionInput>> {
    const given = this.#options.tools === undefined ? [] : await toolSetDefinitions(this.#options.tools);
    if (!this.#toolsGiven || given.some((tool) => tool.name === RETRIEVE_CONTEXT_TOOL_NAME)) return given;
    return [...given, ...(await toolSetDefinitions(this.#tools))];
  }

  #createPipeline(): Pipeline {
    const given = this.#options.compression;
    const compression = given === false ? [] : [new CompressionPlugin(given ?? { strategies: [...DEFAULT_STRATEGIES] })];
    return createPipeline({ plugins: [new AiSdkRendererPlugin(), ...compression, ...(this.#options.plugins ?? [])] });
  }

  #countingFor(modelId: string, callReserve: number | undefined): ModelCounting & { readonly key: string } {
    const reserve = this.#options.reserveOutputTokens ?? callReserve;
    const key = `${reserve ?? ""}:${modelId}`;
    let counting = this.#counting.get(key);
    if (counting === undefined) {
      const { maxTokens, countAs, fallback, tokenizer } = this.#options;
      counting = resolveModelCounting(modelId, { maxTokens, reserveOutputTokens: reserve, countAs, fallback, tokenizer });
      this.#counting.set(key, counting);
    }
    return { ...counting, key };
  }

  /**
   * Learns from the input tokens the provider reported for a build's request: an approximation is
   * replaced by one calibrated on the figures (exact tokenizers and a tokenizer of the caller's
   * never change). Figures no tokenizer could have (a ratio calibrate() refuses) teach nothing.
   */
  #learn(build: BuildResult<AiSdkRequest> | undefined, reported: number | undefined): void {
    const counted = build === undefined ? undefined : this.#countedWith.get(build);
    if (counted === undefined || reported === undefined || this.#options.tokenizer !== undefined) return;
    // Only the tokenizer still in use learns: a build that raced an earlier calibration counted with an older one.
    const current = this.#counting.get(counted.key);
    const tokenizer = counted.counting.tokenizer as Partial<ApproximateTokenizer>;
    if (current?.tokenizer !== counted.counting.tokenizer || tokenizer.exact !== false || typeof tokenizer.calibrate !== "function") return;
    try {
      const calibrated = tokenizer.calibrate({ counted: build!.tokenCount, reported });
      if (calibrated !== tokenizer) this.#counting.set(counted.key, Object.freeze({ ...current, tokenizer: calibrated }));
    } catch {
      // Figures that cannot describe the same request (a gateway adding a prompt of its own): keep counting as before.
    }
  }

  async #build(items: ReadonlyArray<Item>, counting: ModelCounting & { readonly key: string }, tools: ReadonlyArray<ToolDefinitionInput>, info: Omit<AiSdkBuildInfo, "countedAs" | "maxTokens" | "reserveOutputTokens">): Promise<BuildResult<AiSdkRequest>> {
    const { system, buildOptions } = this.#options;
    const options: BuildOptions<"ai-sdk"> = {
      ...buildOptions,
      renderer: "ai-sdk",
      model: counting.model,
      maxTokens: counting.maxTokens,
      reserveOutputTokens: counting.reserveOutputTokens,
      tokenizer: counting.tokenizer,
      // Model messages carry no dates: their order is the conversation's.
      order: "input",
      ...(system === undefined ? {} : { system }),
      ...(tools.length === 0 ? {} : { tools }),
    };
    const result = await this.#pipeline.build(items, options);
    this.#offloaded.keep(result.report.offloaded);
    this.#countedWith.set(result, { key: counting.key, counting });
    this.#lastBuild = result;
    await this.#options.onBuild?.(result, { ...info, countedAs: counting.model, maxTokens: counting.maxTokens, reserveOutputTokens: counting.reserveOutputTokens });
    return result;
  }

  async #prepareStep(args: AiSdkPrepareStepArgs): Promise<AiSdkPrepareStepResult> {
    if (typeof args !== "object" || args === null) throw new AiSdkCallError("prepareStep", "a step", "the AI SDK's step ({ messages, model, stepNumber, steps })", args);
    if (!Array.isArray(args.messages)) throw new AiSdkCallError("prepareStep", "messages", "the step's messages (an array of ModelMessage)", args.messages);
    const modelId = modelIdOf(args.model, "prepareStep", this.#options.countAs);
    // The previous step of this run was sent what its build made: its usage says how the provider counted it.
    const steps = Array.isArray(args.steps) ? args.steps : undefined;
    const previous = steps === undefined || steps.length === 0 ? undefined : this.#runBuilds.get(steps);
    if (previous !== undefined) this.#learn(previous, (steps!.at(-1) as { usage?: { inputTokens?: number } } | undefined)?.usage?.inputTokens);
    const { history, instructions } = this.#carried.resolve(args.messages, args.instructions);
    const given = this.#instructionMessagesOf(instructions as AiSdkPrepareStepArgs["instructions"]);
    const items = [...importModelMessages(given, { idPrefix: INSTRUCTIONS_PREFIX }), ...importModelMessages(history)];
    const result = await this.#build(items, this.#countingFor(modelId, undefined), await this.#stepTools(), { via: "prepareStep", modelId, stepNumber: args.stepNumber });
    if (steps !== undefined) this.#runBuilds.set(steps, result);
    const { system, messages } = result.request;
    // The caller's instructions, sent as they were, are left to the AI SDK: their provider options stay.
    const kept = system === joinedSystem(given);
    if (kept) {
      this.#carried.remember(messages, history, undefined, instructions);
      return { messages };
    }
    // The same object is carried into the next step's instructions, where it is recognised.
    const sentInstructions = system ?? [];
    this.#carried.remember(messages, history, sentInstructions, instructions);
    return { ...(system === undefined ? {} : { system }), instructions: sentInstructions, messages };
  }

  #instructionMessagesOf(instructions: AiSdkPrepareStepArgs["instructions"]): SystemModelMessage[] {
    if (typeof instructions !== "string") return instructionMessages(instructions);
    if (this.#instructions?.text !== instructions) this.#instructions = { text: instructions, messages: instructionMessages(instructions) };
    return this.#instructions.messages;
  }

  async #transformPrompt(
    prompt: ProviderPrompt,
    model: { readonly modelId: string; readonly specificationVersion?: string },
    callType: "generate" | "stream",
    tools: Parameters<typeof callToolDefinitions>[0],
    maxOutputTokens: number | undefined,
  ): Promise<{ prompt: ProviderPrompt; build: BuildResult<AiSdkRequest> }> {
    if (!Array.isArray(prompt)) throw new AiSdkCallError("middleware", "a prompt", "the call's prompt (an array of provider messages)", prompt);
    const modelId = modelIdOf(model, "middleware", this.#options.countAs);
    const version = model?.specificationVersion === "v3" ? "v3" : "v4";
    const messages = this.#interner.intern(prompt);
    const leading: ProviderMessage[] = [];
    for (const message of prompt) {
      if (message.role !== "system") break;
      leading.push(message);
    }
    const result = await this.#build(importModelMessages(messages), this.#countingFor(modelId, maxOutputTokens), callToolDefinitions(tools), { via: "middleware", modelId, callType });
    const { system, messages: sent } = result.request;
    // The caller's system messages, sent as they were, keep their provider options.
    const head: ProviderMessage[] = system === joinedSystem(leading) ? leading : system === undefined ? [] : [{ role: "system", content: system }];
    return { prompt: [...head, ...toProviderPrompt(sent, version)], build: result };
  }
}

/**
 * How much one retrieve_context call returns by default, as the loops size it: a quarter of the last
 * build's prompt budget in characters (at most an eighth of it in tokens), so that what the model
 * reads back fits in the next prompts beside the rest; between 1,000 and 20,000.
 */
function retrieveMaxChars(build: BuildResult<unknown> | undefined): number {
  const available = build?.report.budget?.available;
  if (available === undefined) return DEFAULT_RETRIEVE_MAX_CHARS;
  return Math.max(1000, Math.min(DEFAULT_RETRIEVE_MAX_CHARS, Math.floor(available / 4)));
}

/**
 * A ctxpipe context for an AI SDK agent: pass `prepareStep` to generateText/streamText (or a
 * ToolLoopAgent), or `middleware` to wrapLanguageModel. Every model call is then built from its
 * history by one pipeline: broken tool pairs repaired, the prompt fitted to the model's budget
 * (compressed first), and `lastBuild.report` saying what was done and why.
 *
 * @throws PluginOptionsError naming every option that does not fit.
 */
export function createAiSdkContext(options?: AiSdkContextOptions): AiSdkContext {
  return new AiSdkContextImpl(options);
}
