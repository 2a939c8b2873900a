// Every hook of a pipeline, declared in one place. These are the callable tapable hooks; plugins
// only ever see the tap-only view built over them (tap-only-hooks.ts).
import { AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, HookMap, SyncBailHook } from "tapable";
import type { ModelLimits, ModelLimitsRequest } from "../spec/model-limits.js";
import type { Tokenizer, TokenizerRequest } from "../spec/tokenizer.js";
import type { Items } from "./pipeline-hooks.js";
import type { RenderContext, RenderResult, StageContext, ValidateContext } from "./stage-context.js";

export type ItemsWaterfallHook = AsyncSeriesWaterfallHook<[Items, StageContext]>;
export type RenderBailHook = AsyncSeriesBailHook<[Items, RenderContext], RenderResult<unknown> | undefined>;
export type RequestValidateSeriesHook = AsyncSeriesHook<[unknown, ValidateContext]>;

export interface RunnableHooks {
  /** Shrinks the history to fit: summaries, clearing, windows. */
  readonly compress: ItemsWaterfallHook;
  /** Removes items that must not be sent (stored system messages, excluded or empty items). */
  readonly filter: ItemsWaterfallHook;
  /** Fixes broken tool call / result pairing. */
  readonly repairOrphans: ItemsWaterfallHook;
  /** Puts the system prompt in front. */
  readonly insertSystem: ItemsWaterfallHook;
  /** Reports rule violations; the pipeline throws once with all of them. */
  readonly validate: AsyncSeriesHook<[Items, ValidateContext]>;
  /** One bail hook per renderer name. */
  readonly render: HookMap<RenderBailHook>;
  /** Checks a renderer's request against that provider's rules; one hook per renderer name. */
  readonly validateRequest: HookMap<RequestValidateSeriesHook>;
  /** Supplies the default tokenizer. */
  readonly tokenizer: SyncBailHook<[TokenizerRequest], Tokenizer | undefined>;
  /** Supplies the model's context window, asked only when reserveOutputTokens is given without maxTokens. */
  readonly modelLimits: SyncBailHook<[ModelLimitsRequest], ModelLimits | undefined>;
}

export function createPipelineHooks(): RunnableHooks {
  return Object.freeze({
    compress: new AsyncSeriesWaterfallHook<[Items, StageContext]>(["items", "context"], "compress"),
    filter: new AsyncSeriesWaterfallHook<[Items, StageContext]>(["items", "context"], "filter"),
    repairOrphans: new AsyncSeriesWaterfallHook<[Items, StageContext]>(["items", "context"], "repair-orphans"),
    insertSystem: new AsyncSeriesWaterfallHook<[Items, StageContext]>(["items", "context"], "insert-system"),
    validate: new AsyncSeriesHook<[Items, ValidateContext]>(["items", "context"], "validate"),
    render: new HookMap<RenderBailHook>(
      (renderer: string) => new AsyncSeriesBailHook<[Items, RenderContext], RenderResult<unknown> | undefined>(["items", "context"], `render:${renderer}`),
      "render",
    ),
    validateRequest: new HookMap<RequestValidateSeriesHook>(
      (renderer: string) => new AsyncSeriesHook<[unknown, ValidateContext]>(["request", "context"], `validate-request:${renderer}`),
      "validateRequest",
    ),
    tokenizer: new SyncBailHook<[TokenizerRequest], Tokenizer | undefined>(["request"], "tokenizer"),
    modelLimits: new SyncBailHook<[ModelLimitsRequest], ModelLimits | undefined>(["request"], "modelLimits"),
  });
}
