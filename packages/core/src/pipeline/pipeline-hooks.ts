// The hooks as plugins see them: tap-only, named after the stages, typed by ctxpipe's own names so
// the runner underneath (tapable today) can change without breaking plugins. Only the pipeline calls them.
import type { Item } from "../model/item.js";
import type { RendererName, RendererOutputMap } from "../spec/renderer-output-map.js";
import type { ModelLimits, ModelLimitsRequest } from "../spec/model-limits.js";
import type { Tokenizer, TokenizerRequest } from "../spec/tokenizer.js";
import type { RenderContext, RenderResult, StageContext, ValidateContext } from "./stage-context.js";

export interface TapOptions {
  /** The plugin's name: errors and report entries name it. */
  readonly name: string;
  /** Position inside the stage (see STAGE); lower runs first. Default STAGE.DEFAULT. */
  readonly stage?: number;
}

export type Items = ReadonlyArray<Item>;
/** Returning undefined keeps the items as they were. */
// biome-ignore lint/suspicious/noConfusingVoidType: lets a tap with no return statement type-check
export type ItemsTapResult = Items | undefined | void;

/** compress, filter, repair-orphans and insert-system: a waterfall over the item list. */
export interface ItemsHook {
  readonly name: string;
  tap(options: TapOptions, fn: (items: Items, context: StageContext) => ItemsTapResult): void;
  tapPromise(options: TapOptions, fn: (items: Items, context: StageContext) => Promise<ItemsTapResult>): void;
}

/** validate: every tap reports issues; the build fails once after all of them ran. */
export interface ValidateHook {
  readonly name: string;
  tap(options: TapOptions, fn: (items: Items, context: ValidateContext) => void): void;
  tapPromise(options: TapOptions, fn: (items: Items, context: ValidateContext) => Promise<void>): void;
}

/** render, for one renderer: the first tap that returns a result wins. */
export interface RenderHook<Request> {
  readonly name: string;
  tap(options: TapOptions, fn: (items: Items, context: RenderContext) => RenderResult<Request> | undefined): void;
  tapPromise(options: TapOptions, fn: (items: Items, context: RenderContext) => Promise<RenderResult<Request> | undefined>): void;
}

export interface RenderHookMap {
  for<R extends RendererName>(renderer: R): RenderHook<RendererOutputMap[R]>;
  for(renderer: string): RenderHook<unknown>;
}

/** validate, second pass: checks the request one renderer produced. Every tap reports issues. */
export interface RequestValidateHook<Request> {
  readonly name: string;
  tap(options: TapOptions, fn: (request: Request, context: ValidateContext) => void): void;
  tapPromise(options: TapOptions, fn: (request: Request, context: ValidateContext) => Promise<void>): void;
}

export interface RequestValidateHookMap {
  for<R extends RendererName>(renderer: R): RequestValidateHook<RendererOutputMap[R]>;
  for(renderer: string): RequestValidateHook<unknown>;
}

/** Supplies the tokenizer when the build options give none; the first tap that returns one wins. */
export interface TokenizerHook {
  readonly name: string;
  tap(options: TapOptions, fn: (request: TokenizerRequest) => Tokenizer | undefined): void;
}

/**
 * Supplies the model's context window, which is the budget of a build given reserveOutputTokens
 * without maxTokens; the first tap that returns limits wins. Asked for no other build.
 */
export interface ModelLimitsHook {
  readonly name: string;
  tap(options: TapOptions, fn: (request: ModelLimitsRequest) => ModelLimits | undefined): void;
}

export interface PipelineHooks {
  readonly compress: ItemsHook;
  readonly filter: ItemsHook;
  readonly repairOrphans: ItemsHook;
  readonly insertSystem: ItemsHook;
  readonly validate: ValidateHook;
  readonly render: RenderHookMap;
  /** Runs after render on the request, with the rules of the provider it is for. */
  readonly validateRequest: RequestValidateHookMap;
  readonly tokenizer: TokenizerHook;
  readonly modelLimits: ModelLimitsHook;
}

/** What a plugin's apply() receives. */
export interface PluginHost {
  readonly hooks: PipelineHooks;
}

/** A plugin: a name and one apply() that taps hooks. */
export interface PipelinePlugin {
  readonly name: string;
  apply(pipeline: PluginHost): void;
}
