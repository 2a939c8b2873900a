// The pipeline: plugins tap its stage hooks; build() runs compress → filter → repair-orphans →
// insert-system → validate → render over the canonical items and returns the request and the report.
import { z } from "zod";
import { BudgetExceededError } from "../errors/budget-exceeded-error.js";
import { ContextValidationError, type ValidationIssue } from "../errors/context-validation-error.js";
import { CtxpipeError } from "../errors/ctxpipe-error.js";
import { ERROR_CODES } from "../errors/error-codes.js";
import { PipelineFrozenError } from "../errors/pipeline-frozen-error.js";
import { PluginError } from "../errors/plugin-error.js";
import { PluginOptionsError } from "../errors/plugin-options-error.js";
import { RendererNotFoundError } from "../errors/renderer-not-found-error.js";
import { isPinned, pinnedList } from "../model/is-pinned.js";
import type { Item, ItemInput } from "../model/item.js";
import type { TurnGroups } from "../model/turn-groups.js";
import type { RendererName, RendererOutputMap } from "../spec/renderer-output-map.js";
import { isTokenizer } from "../spec/is-tokenizer.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import { type ToolDefinition, toolDefinitionListSchema } from "../spec/tool-definition.js";
import { assembleReport } from "./assemble-report.js";
import type { BuildReport, SystemPartReport } from "./build-report.js";
import { type BuildContextInit, type BuildContextInternals, createBuildContext, internalsOf } from "./build-context.js";
import type { BuildOptions, SystemPartInput, ValidationMode } from "./build-options.js";
import type { BuildMetadata, BuildResult } from "./build-result.js";
import { createPipelineHooks, type RenderBailHook, type RunnableHooks } from "./create-pipeline-hooks.js";
import { DEFAULT_PLUGIN_NAMES, type DefaultPluginSettings, defaultPluginKeyFor, defaultPlugins } from "./default-plugins.js";
import { guardTokenizer } from "./guard-tokenizer.js";
import { InputPreparer } from "./input-preparer.js";
import type { Items, PipelineHooks, PipelinePlugin, PluginHost } from "./pipeline-hooks.js";
import { STAGE_LABELS, STAGES } from "./stage.js";
import { comparePrefix } from "./compare-prefix.js";
import { currentTurnOf } from "./estimate-tokens.js";
import type { Budget, RenderResult, RequestPrefix, StageContext, ValidateContext } from "./stage-context.js";
import { createTapOnlyHooks, type HookGuard } from "./tap-only-hooks.js";
import { type PolicyView, policyDecisionsOf, policyViewFrom, registerPolicyView } from "./policy-view.js";
import { namedInRequest } from "./named-in-request.js";
import { OffloadedReportMemo } from "./offloaded-report-memo.js";
import { SYSTEM_PROMPT_ID } from "./system-prompt-id.js";

export interface PipelineOptions {
  /** Plugins to register, in order. A plugin with the same name as a default plugin replaces it. */
  readonly plugins?: ReadonlyArray<PipelinePlugin>;
  /**
   * The default plugins to register: true (all, the default), false (none), or per plugin by its key,
   * e.g. `{ filter: false }`. The keys (DefaultPluginName) are fitBudget, filter, failedCalls,
   * hardLimits, repairOrphans, insertSystem, validate, openaiRenderer and tokenizer, not the plugins' class names;
   * any other key is a PluginOptionsError that lists them.
   */
  readonly defaults?: boolean | DefaultPluginSettings;
}

const systemPartSchema = z.union([
  z.string(),
  z.strictObject({
    id: z.string().min(1).optional(),
    text: z.string(),
    order: z.number().refine(Number.isFinite, "must be a finite number").optional(),
  }),
]);

const validationModeSchema = z.enum(["repair", "throw", "report"]);

// Not strict: plugin packages add their own fields to BuildOptions by declaration merging.
const buildOptionsSchema = z
  .object({
    renderer: z.string().min(1).optional(),
    model: z.string().optional(),
    system: z.union([z.string(), z.array(systemPartSchema)]).optional(),
    includeSystemPrompt: z.boolean().optional(),
    maxTokens: z.number().int().positive().optional(),
    reserveOutputTokens: z.number().int().nonnegative().optional(),
    tokenizer: z.custom<Tokenizer>(isTokenizer, "must be a tokenizer { specificationVersion, name, exact, count(text) }").optional(),
    order: z.enum(["createdAt", "input"]).optional(),
    promptCacheKey: z.string().min(1).optional(),
    validation: z
      .union([validationModeSchema, z.strictObject({ mode: validationModeSchema.optional(), ignore: z.array(z.string().min(1)).optional() })])
      .optional(),
  })
  .refine((options) => options.maxTokens === undefined || (options.reserveOutputTokens ?? 0) < options.maxTokens, {
    path: ["reserveOutputTokens"],
    message: "must be less than maxTokens",
  });

// Loose: unknown keys are refused by checkDefaultKeys, whose message lists the keys that exist.
const defaultSettingsSchema = z.union([z.boolean(), z.looseObject(Object.fromEntries(DEFAULT_PLUGIN_NAMES.map((name) => [name, z.boolean().optional()])))]);

const pipelineOptionsSchema = z.strictObject({
  plugins: z.array(z.unknown()).optional(),
  defaults: defaultSettingsSchema.optional(),
});

function checkPlugin(plugin: unknown): asserts plugin is PipelinePlugin {
  const candidate = plugin as Partial<PipelinePlugin> | null;
  if (typeof candidate !== "object" || candidate === null || typeof candidate.name !== "string" || candidate.name.length === 0 || typeof candidate.apply !== "function") {
    const name = typeof candidate?.name === "string" && candidate.name.length > 0 ? candidate.name : "(unnamed plugin)";
    throw new PluginOptionsError(name, "  a plugin is an object { name: string, apply(pipeline): void }");
  }
}

/**
 * Refuses keys of `defaults` that name no default plugin, listing the keys that do. A plugin's name
 * or class name is a common guess (older docs showed one), so the message says which key to use.
 */
function checkDefaultKeys(settings: PipelineOptions["defaults"]): void {
  if (typeof settings !== "object") return;
  const known: ReadonlySet<string> = new Set(DEFAULT_PLUGIN_NAMES);
  const problems = Object.keys(settings)
    .filter((key) => !known.has(key))
    .map((key) => {
      const meant = defaultPluginKeyFor(key);
      const hint = meant === undefined ? "." : `: did you mean ${meant}?`;
      return `✖ unknown key "${key}"${hint} The default plugins' keys are: ${DEFAULT_PLUGIN_NAMES.join(", ")}\n  → at defaults.${key}`;
    });
  if (problems.length > 0) throw new PluginOptionsError("createPipeline()", problems.join("\n"));
}

function systemPartsOf(system: BuildOptions["system"]): SystemPartInput[] {
  if (system === undefined) return [];
  if (typeof system === "string") return system.length === 0 ? [] : [{ text: system }];
  return system.map((part) => (typeof part === "string" ? { text: part } : part));
}

export class Pipeline implements PluginHost {
  /** Tap-only hooks: what plugins use. */
  readonly hooks: PipelineHooks;
  readonly #raw: RunnableHooks;
  readonly #guard: HookGuard & { frozen: boolean };
  readonly #options: PipelineOptions;
  readonly #plugins: PipelinePlugin[] = [];
  /** Names of the default plugins applied, which use() cannot add a second time. */
  readonly #defaultNames = new Set<string>();
  /** Reuses the last build's parsing, ordering and turn groups when the input only grew. */
  readonly #input = new InputPreparer();
  /** Each renderer's last request, cut into cacheable parts, for report.cache. */
  readonly #previousPrefix = new Map<string, RequestPrefix>();
  /** The list the running compress tap received, by build context: its policy view is made from it. */
  readonly #compressInput = new WeakMap<object, Items>();
  /** report.offloaded, worked out from the last build's answer. */
  readonly #offloaded = new OffloadedReportMemo();

  constructor(options: PipelineOptions = {}) {
    const checked = pipelineOptionsSchema.safeParse(options);
    if (!checked.success) throw new PluginOptionsError("createPipeline()", z.prettifyError(checked.error));
    checkDefaultKeys(options.defaults);
    this.#options = options;
    this.#raw = createPipelineHooks();
    this.#raw.compress.intercept({
      register: (tap) => {
        const fn = tap.fn as (items: Items, context: StageContext) => Promise<Items>;
        return {
          ...tap,
          fn: (items: Items, context: StageContext) => {
            this.#compressInput.set(context, items);
            return fn(items, context);
          },
        };
      },
    });
    this.#guard = { frozen: false, renderers: new Set() };
    this.hooks = createTapOnlyHooks(this.#raw, this.#guard);
    const userPlugins = options.plugins ?? [];
    userPlugins.forEach(checkPlugin);
    const replaced = new Set(userPlugins.map((plugin) => plugin.name));
    for (const plugin of defaultPlugins(options.defaults ?? true)) {
      if (replaced.has(plugin.name)) continue;
      this.#apply(plugin);
      this.#defaultNames.add(plugin.name);
    }
    for (const plugin of userPlugins) this.use(plugin);
  }

  /** Whether the pipeline has built: a frozen pipeline takes no more plugins. */
  get frozen(): boolean {
    return this.#guard.frozen;
  }

  /** Registers a plugin. Throws PipelineFrozenError once the pipeline has built. */
  use(plugin: PipelinePlugin): this {
    checkPlugin(plugin);
    if (this.#guard.frozen) throw new PipelineFrozenError(plugin.name);
    if (this.#defaultNames.has(plugin.name)) {
      throw new PluginOptionsError(
        plugin.name,
        `  a default plugin named "${plugin.name}" is already registered. To replace it, pass your plugin in createPipeline({ plugins }), or switch the default off with createPipeline({ defaults: { ... } })`,
      );
    }
    this.#apply(plugin);
    this.#plugins.push(plugin);
    return this;
  }

  /** An unfrozen pipeline with the same options and plugins, to which more plugins can be added. */
  clone(): Pipeline {
    return new Pipeline({ ...this.#options, plugins: [...this.#plugins] });
  }

  #apply(plugin: PipelinePlugin): void {
    try {
      plugin.apply({ hooks: this.hooks });
    } catch (error) {
      if (CtxpipeError.isInstance(error)) throw error;
      throw new PluginError(plugin.name, "apply", error);
    }
  }

  /** Builds the request for the chosen renderer (default "openai") from the items. */
  async build<R extends RendererName = "openai">(items: ReadonlyArray<ItemInput>, options: BuildOptions<R> = {}): Promise<BuildResult<RendererOutputMap[R]>> {
    const checked = buildOptionsSchema.safeParse(options);
    if (!checked.success) throw new PluginOptionsError("build()", z.prettifyError(checked.error));
    const { items: parsed, indexes: inputIndexes, setAside, warnings: inputWarnings, ordered, turns, order } = this.#input.prepare(items, options.order ?? "createdAt");
    const tools = this.#parseTools(options.tools);
    const { budget, warning: budgetWarning } = this.#budgetOf(options);
    // Frozen once the input is known to be valid: a refused call is not a build.
    this.#guard.frozen = true;

    const renderer = options.renderer ?? "openai";
    const tokenizer = this.#resolveTokenizer(options);

    // What the later item stages make of the list a compress tap received, for taps that hand items to
    // a model: made on first request, once per build and list (every attempt starts from the same input).
    const views = new WeakMap<Items, Promise<PolicyView>>();
    const policyView = (base: Items): Promise<PolicyView> => {
      let view = views.get(base);
      if (view === undefined) {
        view = this.#policyView({ options, renderer, tokenizer, budget, tools, inputItems: ordered, turns }, base);
        views.set(base, view);
      }
      return view;
    };

    // Over budget, the stages run again from compress, told by how much the last request was over.
    let attempt: Attempt;
    let attempts = 0;
    let previousTokenCount: number | undefined;
    let wholeWarning: string | undefined;
    for (let shortfall = 0; ; ) {
      attempts++;
      const attemptBudget = budget === undefined ? undefined : { ...budget, shortfall, ...(previousTokenCount === undefined ? {} : { previousTokenCount }) };
      attempt = await this.#attempt({ options, renderer, tokenizer, budget: attemptBudget, tools, inputItems: ordered, turns }, policyView);
      const over = budget === undefined ? 0 : attempt.rendered.tokenCount - budget.available;
      if (over <= 0) break;
      if (attempts >= MAX_BUDGET_ATTEMPTS || this.#raw.compress.taps.length === 0) {
        // Dropping can make a request longer (a result stored ahead of its call, dropped, is repaired
        // into a longer note): before giving up, the request with nothing compressed, if that fits.
        // Compress plugins see no budget on that attempt, so they leave the items as they are (but one
        // given a budget of its own); the report counts the attempt and says why it was made.
        if (this.#raw.compress.taps.length > 0) {
          const whole = await this.#attempt({ options, renderer, tokenizer, budget: undefined, tools, inputItems: ordered, turns }, policyView);
          if (whole.rendered.tokenCount <= budget!.available) {
            attempts++;
            wholeWarning = `[ctxpipe] every compressed request came out over the budget (the last one at ${attempt.rendered.tokenCount} of ${budget!.available} tokens); the request built with no budget given to the compress stage fits (${whole.rendered.tokenCount} tokens) and is sent`;
            attempt = whole;
            break;
          }
        }
        const detail = newestTurnOnly(attempt.current, turns, attempt.context.countTokens);
        throw new BudgetExceededError(attempt.rendered.tokenCount, budget!.available, countExact(tokenizer, attempt.rendered), detail === undefined ? {} : { detail });
      }
      // Compress plugins work from estimates, which may miss by more than one attempt's overshoot (a
      // synthesized turn, a provider's heavier formatting): the shortfall doubles so that a few
      // attempts always reach a request that fits, at the price of dropping a little more than needed.
      shortfall = 2 * shortfall + over;
      previousTokenCount = attempt.rendered.tokenCount;
    }
    const { rendered, current, internals, renderPlugin, violations, repaired, context } = attempt;
    const previousPrefix = this.#previousPrefix.get(renderer);
    if (rendered.prefix === undefined) this.#previousPrefix.delete(renderer);
    else this.#previousPrefix.set(renderer, rendered.prefix);

    // The report walks every input item, so it is assembled on first read: an agent loop that only
    // sends the request does not pay for it on every turn.
    const assembled = once(() =>
      assembleReport({
        inputItems: parsed,
        orderedItems: ordered,
        inputIndexes,
        setAside,
        finalItems: current,
        internals,
        renderPlugin,
        messageIndexById: rendered.messageIndexById,
        countTokens: context.countTokens,
      }),
    );
    // Counts the loop reads every turn are plain; the rest come from the report, assembled on first read.
    const systemPromptIncluded = once(() => current.some((item) => item.id === SYSTEM_PROMPT_ID) && assembled().synthesized.some((entry) => entry.id === SYSTEM_PROMPT_ID));
    const filteredCount = once(
      () => assembled().entries.filter((entry) => entry.type !== "system" && entry.history.some((event) => event.stage === "filter" && event.decision === "dropped")).length,
    );
    const metadata: BuildMetadata = {
      inputCount: items.length,
      outputCount: rendered.messageCount,
      get filteredCount() {
        return filteredCount();
      },
      get systemPromptIncluded() {
        return systemPromptIncluded();
      },
      get systemPromptLength() {
        const systemPrompt = current.find((item) => item.id === SYSTEM_PROMPT_ID);
        return systemPromptIncluded() && systemPrompt !== undefined && "text" in systemPrompt ? systemPrompt.text.length : 0;
      },
    };
    const allEntries = once(() => assembled().allEntries());
    // Nothing a later stage left out or rewrote may be read back by the model.
    // The policy view over the input says what the later stages do to the originals, which the build's
    // own stages may only have seen as placeholders; asked only when something was offloaded.
    const inputPolicy = internals.hasOffloaded() ? policyDecisionsOf(await policyView(ordered)) : undefined;
    // Read without assembling the report: a loop reads offloaded, compression and budget every turn.
    const offloaded = once(() =>
      this.#offloaded.answer({ texts: internals.offloaded, inputItems: parsed, log: internals.log.snapshot(), policy: inputPolicy, namedInRequest: namedInRequest(rendered.request) }),
    );
    const systemParts = once(() => (systemPromptIncluded() ? systemPartsReport(context) : []));
    const report = once((): BuildReport => {
      // entries, synthesized and systemParts are enumerable getters, defined in the report's key order
      // (a spread before an accessor would move it to the end): JSON, spreads and deep equality read
      // them as before, and a reader of the other fields does not pay for walking every input item.
      const built = Object.defineProperties(Object.fromEntries(internals.attachments), {
        entries: { get: () => assembled().entries, enumerable: true, configurable: true },
        synthesized: { get: () => assembled().synthesized, enumerable: true, configurable: true },
        systemParts: { get: systemParts, enumerable: true, configurable: true },
        // Not enumerable: the same entries as entries and synthesized, so serialized reports do not hold them twice.
        allEntries: { get: allEntries, enumerable: false, configurable: true },
      });
      const rest: Omit<BuildReport, "allEntries" | "entries" | "synthesized" | "systemParts"> = {
        renderer,
        tokenizer: { name: tokenizer.name, exact: tokenizer.exact },
        budget:
          budget === undefined
            ? undefined
            : { maxTokens: budget.maxTokens, reserveOutputTokens: budget.reserveOutputTokens, available: budget.available, used: rendered.tokenCount, attempts },
        order,
        // What the input itself holds comes first, then what the build made of it.
        warnings: [...inputWarnings, ...(budgetWarning === undefined ? [] : [budgetWarning]), ...internals.warnings, ...(wholeWarning === undefined ? [] : [wholeWarning]), ...offloaded().warnings],
        violations,
        repairedViolations: repaired,
        cache: comparePrefix(previousPrefix, rendered.prefix),
        offloaded: offloaded().offloaded,
      };
      return Object.assign(built, rest) as unknown as BuildReport;
    });

    return {
      request: rendered.request as RendererOutputMap[R],
      tokenCount: rendered.tokenCount,
      tokenCountExact: countExact(tokenizer, rendered),
      get includedIds() {
        return assembled().includedIds;
      },
      get excludedIds() {
        return assembled().excludedIds;
      },
      metadata,
      get report() {
        return report();
      },
    };
  }

  /** One run of the stages, validation and render. */
  async #attempt(init: BuildContextInit, policyView: (base: Items) => Promise<PolicyView>): Promise<Attempt> {
    const { options, renderer } = init;
    const context = createBuildContext(init);
    registerPolicyView(context, () => policyView(this.#compressInput.get(context) ?? init.inputItems));
    const internals = internalsOf(context);
    internals.enterTap("build options");
    for (const part of systemPartsOf(options.system)) context.system.add(part);

    let current: Items = init.inputItems;
    for (const stage of STAGES) {
      if (stage === "validate" || stage === "render") break;
      internals.stage = STAGE_LABELS[stage];
      current = await this.#raw[stage].promise(current, context as StageContext);
    }

    const validation = validationOf(options.validation);
    const repaired: ValidationIssue[] = [];
    const violations: ValidationIssue[] = [];
    // A failed check hands the items back to repair-orphans once (in "repair" mode), then checks again.
    const settle = async (issues: ValidationIssue[], recheck: () => Promise<ValidationIssue[]>): Promise<void> => {
      if (issues.length === 0) return;
      if (validation.mode === "report") {
        violations.push(...issues);
        return;
      }
      if (validation.mode === "throw") throw new ContextValidationError(issues);
      current = await this.#repairAgain(current, context, issues);
      const left = await recheck();
      if (left.length > 0) throw new ContextValidationError(left);
      repaired.push(...issues);
    };

    const checkItems = () => this.#validateItems(current, context, validation.ignore);
    await settle(await checkItems(), checkItems);

    const renderHook = this.#raw.render.get(renderer);
    if (renderHook === undefined || !renderHook.isUsed()) throw new RendererNotFoundError(renderer, [...this.#guard.renderers].sort());
    let rendered = await this.#render(renderHook, renderer, current, context);
    let renderPlugin = internals.plugin;
    const checkRequest = () => this.#validateRequest(rendered, renderer, context, validation.ignore);
    await settle(await checkRequest(), async () => {
      const itemIssues = await checkItems();
      if (itemIssues.length > 0) return itemIssues;
      // The first render's decisions no longer describe what is sent.
      internals.log.remove((event) => event.stage === "render");
      rendered = await this.#render(renderHook, renderer, current, context);
      renderPlugin = internals.plugin;
      return checkRequest();
    });
    return { rendered, current, context, internals, renderPlugin, violations, repaired };
  }

  /**
   * The policy view: filter, repair-orphans and insert-system over `base`, on a context of their own,
   * so that nothing they decide reaches the build's report or warnings.
   */
  async #policyView(init: BuildContextInit, base: Items): Promise<PolicyView> {
    const context = createBuildContext(init);
    const internals = internalsOf(context);
    internals.lane = "policy-view";
    internals.enterTap("build options");
    for (const part of systemPartsOf(init.options.system)) context.system.add(part);
    let items: Items = base;
    for (const stage of POLICY_STAGES) {
      internals.stage = STAGE_LABELS[stage];
      items = await this.#raw[stage].promise(items, context as StageContext);
    }
    return policyViewFrom(items, internals.log);
  }

  async #render(hook: RenderBailHook, renderer: string, items: Items, context: ValidateContext): Promise<RenderResult<unknown>> {
    internalsOf(context).stage = "render";
    const rendered = await hook.promise(items, context);
    if (rendered === undefined) throw new RendererNotFoundError(renderer, [...this.#guard.renderers].sort());
    return rendered;
  }

  /** Runs the validate taps over the item list and returns what they found, minus ignored rules. */
  async #validateItems(items: Items, context: ValidateContext, ignore: Ignored): Promise<ValidationIssue[]> {
    const internals = internalsOf(context);
    internals.stage = "validate";
    internals.phase = "items";
    internals.issues.length = 0;
    await this.#raw.validate.promise(items, context);
    return internals.issues.filter((issue) => !ignore(issue));
  }

  /** Runs the renderer's request checks; issues about a message name the first item it carries. */
  async #validateRequest(rendered: RenderResult<unknown>, renderer: string, context: ValidateContext, ignore: Ignored): Promise<ValidationIssue[]> {
    const hook = this.#raw.validateRequest.get(renderer);
    if (hook === undefined || !hook.isUsed()) return [];
    const internals = internalsOf(context);
    internals.stage = "validate";
    internals.phase = "request";
    internals.issues.length = 0;
    await hook.promise(rendered.request, context);
    const issues = internals.issues.filter((issue) => !ignore(issue));
    if (issues.length === 0 || rendered.messageIndexById === undefined) return issues;
    const firstItemAt = new Map<number, string>();
    for (const [id, index] of rendered.messageIndexById) if (!firstItemAt.has(index)) firstItemAt.set(index, id);
    return issues.map((issue) => {
      const itemId = issue.itemId ?? (issue.messageIndex === undefined ? undefined : (rendered.messageItemIds?.[issue.messageIndex] ?? firstItemAt.get(issue.messageIndex)));
      return itemId === undefined ? issue : { ...issue, itemId };
    });
  }

  /** The second repair-orphans pass, run with the violations that called for it. */
  async #repairAgain(items: Items, context: ValidateContext, issues: ReadonlyArray<ValidationIssue>): Promise<Items> {
    const internals = internalsOf(context);
    internals.stage = "repair-orphans";
    internals.violations = issues;
    try {
      return await this.#raw.repairOrphans.promise(items, context);
    } finally {
      internals.violations = [];
    }
  }

  #resolveTokenizer(options: BuildOptions): Tokenizer {
    if (options.tokenizer !== undefined) return guardTokenizer(options.tokenizer, "build() options");
    const tokenizer = this.#raw.tokenizer.call({ model: options.model });
    if (tokenizer === undefined) {
      throw new CtxpipeError(
        ERROR_CODES.TOKENIZER_NOT_FOUND,
        `No tokenizer for model "${options.model ?? "(none)"}": pass options.tokenizer, or register a tokenizer plugin (the default EstimatingTokenizerPlugin is switched off).`,
      );
    }
    return tokenizer;
  }

  #parseTools(tools: BuildOptions["tools"]): ToolDefinition[] {
    if (tools === undefined) return [];
    const parsed = toolDefinitionListSchema.safeParse(tools);
    if (!parsed.success) throw new PluginOptionsError("build()", z.prettifyError(parsed.error).replaceAll("→ at ", "→ at tools"));
    return parsed.data;
  }

  /**
   * The build's budget: maxTokens minus reserveOutputTokens. Given reserveOutputTokens without
   * maxTokens, the model's context window (from a modelLimits plugin) stands in for maxTokens; when
   * no plugin knows it, the build has no budget and says so in a warning. A build that gives neither
   * has no budget, even when the window is known: fitting every build that names a model to its
   * window would start dropping turns for callers who never asked for a budget.
   */
  #budgetOf(options: BuildOptions): { budget: Budget | undefined; warning?: string } {
    const reserveOutputTokens = options.reserveOutputTokens ?? 0;
    if (options.maxTokens !== undefined) return { budget: budgetOf(options.maxTokens, reserveOutputTokens) };
    if (options.reserveOutputTokens === undefined) return { budget: undefined };
    const limits = this.#raw.modelLimits.call({ model: options.model });
    const model = options.model === undefined ? "the model" : `model "${options.model}"`;
    if (limits === undefined) {
      return {
        budget: undefined,
        warning: `[ctxpipe] reserveOutputTokens is set, but the request has no budget: maxTokens is not given and no plugin knows the context window of ${model} (pass maxTokens, or register TokenizerPlugin from @ctxpipe/tokenizers)`,
      };
    }
    if (reserveOutputTokens >= limits.contextWindow) {
      throw new PluginOptionsError(
        "build()",
        `✖ must be less than the context window of ${model} (${limits.contextWindow} tokens), which is the budget when maxTokens is not given\n  → at reserveOutputTokens`,
      );
    }
    // Where the provider caps the request below the window (GPT-5), the request may use no more than the cap.
    const maxTokens = Math.min(limits.contextWindow, (limits.maxInputTokens ?? limits.contextWindow) + reserveOutputTokens);
    return { budget: budgetOf(maxTokens, reserveOutputTokens) };
  }
}

type Ignored = (issue: ValidationIssue) => boolean;

/** Exact only when both say so: the tokenizer counts exactly, and the renderer knows the size of every part it sent. */
function countExact(tokenizer: Tokenizer, rendered: RenderResult<unknown>): boolean {
  return tokenizer.exact && rendered.tokenCountExact !== false;
}

function budgetOf(maxTokens: number, reserveOutputTokens: number): Budget {
  return { maxTokens, reserveOutputTokens, available: maxTokens - reserveOutputTokens, shortfall: 0 };
}

/** A value computed on first use, then kept. */
function once<Value>(compute: () => Value): () => Value {
  let computed = false;
  let value: Value;
  return () => {
    if (!computed) {
      value = compute();
      computed = true;
    }
    return value;
  };
}

/** The system prompt's parts as the insert-system stage merges them: non-empty, lowest order first. */
function systemPartsReport(context: ValidateContext): SystemPartReport[] {
  return context.system
    .list()
    .filter((part) => part.text.length > 0)
    .map((part) => ({ ...part, tokens: context.tokenizer.count(part.text) }));
}

/** The stages after compress that leave items out or rewrite them: what the policy view runs. */
const POLICY_STAGES = ["filter", "repairOrphans", "insertSystem"] as const;

/** Runs of the stages a build may take to fit its budget before it gives up. */
const MAX_BUDGET_ATTEMPTS = 6;

/**
 * When a request that was over budget held nothing older than the newest turn the user opened (but
 * turns with pinned items, which stay), that turn cannot fit: say so, naming the pinned items and
 * their tokens. Undefined when older items were still in it.
 */
function newestTurnOnly(sent: Items, turns: TurnGroups, countTokens: (item: Item) => number): string | undefined {
  const sentById = new Map<string, Item>();
  for (const item of sent) sentById.set(item.id, item);
  const current = currentTurnOf(turns, (id) => sentById.get(id));
  if (current === undefined) return undefined;
  const pinnedGroups = new Set<number>();
  for (const item of sent) {
    const group = turns.groupOf(item.id);
    if (group !== undefined && group.index < current.index && isPinned(item)) pinnedGroups.add(group.index);
  }
  const pinned: Item[] = [];
  for (const item of sent) {
    const group = turns.groupOf(item.id);
    if (group === undefined || group.index >= current.index) continue;
    if (!pinnedGroups.has(group.index)) return undefined;
    if (isPinned(item)) pinned.push(item);
  }
  const newest = current.openedBy ?? current.itemIds[0];
  if (pinned.length > 0) {
    return `Nothing older than the newest turn (from item "${newest}") but the turns of pinned items was left in the request; that turn, the system prompt and the pinned items ${pinnedList(pinned, { countTokens })} do not fit on their own.`;
  }
  return `Nothing older than the newest turn (from item "${newest}") was left in the request; that turn and the system prompt do not fit on their own.`;
}

interface Attempt {
  readonly rendered: RenderResult<unknown>;
  readonly current: Items;
  readonly context: ValidateContext;
  readonly internals: BuildContextInternals;
  readonly renderPlugin: string;
  readonly violations: ReadonlyArray<ValidationIssue>;
  readonly repaired: ReadonlyArray<ValidationIssue>;
}

function validationOf(option: BuildOptions["validation"]): { mode: ValidationMode; ignore: Ignored } {
  const { mode = "repair", ignore = [] } = typeof option === "string" ? { mode: option } : (option ?? {});
  const ignored = new Set(ignore);
  return { mode, ignore: (issue) => ignored.has(issue.rule) || (issue.level === "strict" && ignored.has("strict")) };
}

/** Creates a pipeline with the default plugins plus the given ones. */
export function createPipeline(options: PipelineOptions = {}): Pipeline {
  return new Pipeline(options);
}
