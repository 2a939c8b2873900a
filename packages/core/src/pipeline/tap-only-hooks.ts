// Builds the tap-only hooks plugins see. Every tap is wrapped here, so that:
// - anything it throws becomes a PluginError naming the plugin and the hook;
// - what it returns is checked (a stage must return valid items with unique ids);
// - items it removed, added or changed without saying why are still reported, attributed to it.
import { CtxpipeError } from "../errors/ctxpipe-error.js";
import { ERROR_CODES } from "../errors/error-codes.js";
import { formatFieldPath } from "../errors/invalid-input-error.js";
import { PipelineFrozenError } from "../errors/pipeline-frozen-error.js";
import { PluginError } from "../errors/plugin-error.js";
import { PluginOptionsError } from "../errors/plugin-options-error.js";
import type { Item } from "../model/item.js";
import { parseItem } from "../model/parse-items.js";
import { isTokenizer } from "../spec/is-tokenizer.js";
import type { ModelLimits, ModelLimitsRequest } from "../spec/model-limits.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import { internalsOf, type Lane } from "./build-context.js";
import { guardTokenizer } from "./guard-tokenizer.js";
import { countBelow, type InOrder, InOrderMemo, type Walked } from "./in-order.js";
import { isNotedList, notePrefix } from "./list-lineage.js";
import { REMOVALS } from "./recorded-in-order.js";
import type { ItemsWaterfallHook, RenderBailHook, RequestValidateSeriesHook, RunnableHooks } from "./create-pipeline-hooks.js";
import type { ItemsHook, Items, PipelineHooks, RenderHook, RequestValidateHook, TapOptions } from "./pipeline-hooks.js";
import { STAGE, type StageLabel } from "./stage.js";
import type { RenderResult } from "./stage-context.js";

export interface HookGuard {
  readonly frozen: boolean;
  /** Renderer names that have at least one tap, for the "renderer not found" message. */
  readonly renderers: Set<string>;
}

function normalizeTapOptions(options: TapOptions, hook: string, guard: HookGuard): { name: string; stage: number } {
  const name = typeof options === "object" && options !== null ? options.name : undefined;
  if (typeof name !== "string" || name.length === 0) {
    throw new PluginOptionsError("(unnamed plugin)", `  tapping "${hook}" needs options { name: string, stage?: number }, with the plugin's name`);
  }
  if (guard.frozen) throw new PipelineFrozenError(name);
  const stage = options.stage ?? STAGE.DEFAULT;
  if (typeof stage !== "number" || !Number.isFinite(stage)) {
    throw new PluginOptionsError(name, `  stage: must be a finite number when tapping "${hook}" (see STAGE)`);
  }
  return { name, stage };
}

function failure(plugin: string, hook: string, message: string): PluginError {
  return new PluginError(plugin, hook, new Error(message));
}

const PASSED_THROUGH: ReadonlySet<string> = new Set([ERROR_CODES.PLUGIN_FAILED, ERROR_CODES.BUDGET_EXCEEDED, ERROR_CODES.OPTIONS_INVALID]);
const CORE_CODES: ReadonlySet<string> = new Set(Object.values(ERROR_CODES));

function wrapThrown(plugin: string, hook: string, error: unknown): CtxpipeError {
  // A PluginError raised inside (say, by the tokenizer a renderer called) already names the culprit;
  // a plugin that finds the budget impossible or its per-build options invalid says so with the error
  // callers already handle; a plugin package's own error (a code core does not define) is already typed.
  if (CtxpipeError.isInstance(error) && (PASSED_THROUGH.has(error.code) || !CORE_CODES.has(error.code))) return error;
  // Decorate, never replace: the original error stays reachable as `cause`.
  return new PluginError(plugin, hook, error);
}

type Internals = ReturnType<typeof internalsOf>;

/** A tap that says it removed an item must not hand it on: the report would contradict the request. */
function checkRecordedRemovals(internal: Internals, plugin: string, hook: StageLabel, isPresent: (id: string) => boolean): void {
  for (const run of internal.log.runsFrom(internal.tapStart)) {
    if (!REMOVALS.has(run.event.decision)) continue;
    for (const id of run.ids) {
      if (!isPresent(id)) continue;
      // A later decision of the same tap (synthesized again) may have put it back.
      const last = internal.log.byId().get(id)?.at(-1);
      if (last !== undefined && REMOVALS.has(last.decision)) {
        throw failure(plugin, hook, `recorded item "${id}" as ${last.decision} but still returned it; remove it from the list it returns`);
      }
    }
  }
}

function acceptInOrder(internal: Internals, plugin: string, hook: StageLabel, before: Items, returned: ReadonlyArray<unknown>, walked: Walked, memo: InOrderMemo): Items {
  const { order, start, prior, priorPatched, sharedWithBefore } = walked;
  // Under `start` the returned list holds last build's objects, already parsed when its check passed.
  const reused = prior === undefined ? 0 : start;
  // The walk's own copy of the list (no second one), with last build's parsed items put back where
  // this one returned their originals; or the tap's own list, copied only when something is put in.
  let accepted = walked.copy as Item[];
  const put = (position: number, item: Item) => {
    if (accepted[position] === item) return;
    if (walked.taps && accepted === returned) {
      accepted = accepted.slice();
      memo.copied(accepted);
    }
    accepted[position] = item;
  };
  if (reused > 0) {
    const parsedBefore = prior!.items;
    // Under `start` the returned list holds what the last one did, and last build's accepted list is
    // that list with parsed items put in where it was patched: only those places differ.
    for (let index = 0; index < priorPatched.length && priorPatched[index]! < reused; index++) {
      const position = priorPatched[index]!;
      put(position, parsedBefore[position]!);
    }
  }
  const parse = (position: number): Item => {
    if (position < reused) return accepted[position]!;
    const parsed = parseItem(returned[position] as Item, position);
    if (Array.isArray(parsed)) {
      const issue = parsed[0]!;
      const id = issue.id === undefined ? "" : ` (id "${issue.id}")`;
      throw failure(plugin, hook, `returned an invalid item at position ${position}${id}, field ${formatFieldPath(issue.path)}: ${issue.message}`);
    }
    put(position, parsed);
    return parsed;
  };
  const addedIds = new Set<string>();
  for (const position of order.inserted) {
    const parsed = parse(position);
    if (addedIds.has(parsed.id)) throw failure(plugin, hook, `returned two items with the id "${parsed.id}"; ids must stay unique`);
    addedIds.add(parsed.id);
  }
  // The same replacements as last build's (all under `start`, as many): the same ids.
  const reusedCount = prior === undefined ? 0 : countBelow(order.replaced, reused);
  let replacedIds: ReadonlySet<string>;
  if (prior !== undefined && reusedCount === order.replaced.length && reusedCount === prior.replacedIds.size) replacedIds = prior.replacedIds;
  else {
    const ids = new Set<string>();
    // Pairs are read by index, not destructured: a destructuring per pair makes an iterator, and a
    // chain's thousands of cleared results are replaced on every build.
    for (let index = 0; index < order.replaced.length; index++) ids.add(parse(order.replaced[index]![0]).id);
    replacedIds = ids;
  }
  const [patchedAt, patchedObjects] = originalsOf(returned, accepted, order);
  memo.patched(patchedAt, patchedObjects);
  // Up to the first item it left out, added or replaced, the list starts as the one it was given;
  // up to the first it parsed, as the one it returned, when the tap noted how it made that one (a
  // tap that notes its lists keeps them as they are; another may change its array later).
  notePrefix(accepted, before, sharedWithBefore);
  if (isNotedList(returned)) notePrefix(accepted, returned, patchedAt.length === 0 ? accepted.length : patchedAt[0]!);
  // The next stages compare this list with the one this check handed them last build: they read only past it.
  if (reused > 0) notePrefix(accepted, prior!.items, reused);
  const matched = memo.recorded.accept(internal.log.runsFrom(internal.tapStart), before, order, addedIds, replacedIds, (ids) => internal.recordAll(ids, "dropped", `removed by ${plugin} without a recorded reason`));
  if (matched !== false) {
    // Which of the other added and replaced items the tap said something about: looked up among its
    // decisions for those ids only (a window's run of thousands of drops is not made into a set).
    const wanted = new Set<string>(addedIds);
    for (let index = matched; index < order.replaced.length; index++) {
      const pair = order.replaced[index]!;
      if (accepted[pair[0]] !== before[pair[1]]) wanted.add(accepted[pair[0]]!.id);
    }
    const touched = touchedAmong(internal, wanted);
    for (const position of order.inserted) {
      const id = accepted[position]!.id;
      if (touched.has(id)) continue;
      internal.record(id, "synthesized", `added by ${plugin} without a recorded reason`);
      touched.add(id);
    }
    // A replacement the tap said nothing about is a change all the same (as the full check records it).
    for (let index = matched; index < order.replaced.length; index++) {
      const pair = order.replaced[index]!;
      const item = accepted[pair[0]]!;
      if (item !== before[pair[1]] && !touched.has(item.id)) internal.record(item.id, "repaired", `changed by ${plugin} without a recorded reason`);
    }
    memo.keep({ items: accepted, replacedIds });
    return accepted;
  }
  return acceptAny(internal, plugin, hook, before, accepted);
}

/** The positions (in order) where the accepted list holds a parsed item in the place of what the tap returned, and what it returned there. */
function originalsOf(returned: ReadonlyArray<unknown>, accepted: Items, order: InOrder): [number[], unknown[]] {
  const positions: number[] = [];
  const objects: unknown[] = [];
  const { inserted, replaced } = order;
  let next = 0;
  const note = (position: number) => {
    if (accepted[position] === returned[position]) return;
    positions.push(position);
    objects.push(returned[position]);
  };
  for (let index = 0; index < replaced.length; index++) {
    const position = replaced[index]![0];
    while (next < inserted.length && inserted[next]! < position) note(inserted[next++]!);
    note(position);
  }
  while (next < inserted.length) note(inserted[next++]!);
  return [positions, objects];
}

/** The ids of `wanted` the running tap has recorded a decision about. */
function touchedAmong(internal: Internals, wanted: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  if (wanted.size === 0) return found;
  for (const run of internal.log.runsFrom(internal.tapStart)) for (const id of run.ids) if (wanted.has(id)) found.add(id);
  return found;
}

/** Checks a stage tap's returned list and records what it did without saying. */
function acceptItems(context: object, plugin: string, hook: StageLabel, before: Items, returned: unknown, memo: InOrderMemo): Items {
  if (!Array.isArray(returned)) {
    throw failure(plugin, hook, `returned ${returned === null ? "null" : typeof returned} instead of an item array; return the new list, or undefined to keep it`);
  }
  const internal = internalsOf(context);
  const walked = memo.of(before, returned);
  if (walked !== undefined) {
    try {
      return acceptInOrder(internal, plugin, hook, before, returned, walked, memo);
    } catch (error) {
      // Its copy may be parsed half-way: the next build walks from the start.
      memo.forget();
      throw error;
    }
  }
  return acceptAny(internal, plugin, hook, before, returned);
}

/** The full check, for a list in any order: parses what is new, checks ids, attributes what was not recorded. */
function acceptAny(internal: Internals, plugin: string, hook: StageLabel, before: Items, returned: ReadonlyArray<unknown>): Items {
  const beforeById = new Map<string, Item>();
  for (const item of before) beforeById.set(item.id, item);

  const accepted: Item[] = new Array(returned.length);
  const seen = new Set<string>();
  const touched = internal.touched();
  for (let position = 0; position < returned.length; position++) {
    const candidate = returned[position] as Item;
    let item: Item;
    if (candidate !== null && typeof candidate === "object" && beforeById.get(candidate.id) === candidate) {
      item = candidate;
    } else {
      const parsed = parseItem(candidate, position);
      if (Array.isArray(parsed)) {
        const issue = parsed[0]!;
        const id = issue.id === undefined ? "" : ` (id "${issue.id}")`;
        throw failure(plugin, hook, `returned an invalid item at position ${position}${id}, field ${formatFieldPath(issue.path)}: ${issue.message}`);
      }
      item = parsed;
    }
    if (seen.has(item.id)) throw failure(plugin, hook, `returned two items with the id "${item.id}"; ids must stay unique`);
    seen.add(item.id);
    accepted[position] = item;

    if (touched.has(item.id)) continue;
    const previous = beforeById.get(item.id);
    if (previous === undefined) internal.record(item.id, "synthesized", `added by ${plugin} without a recorded reason`);
    else if (previous !== item) internal.record(item.id, "repaired", `changed by ${plugin} without a recorded reason`);
  }
  checkRecordedRemovals(internal, plugin, hook, (id) => seen.has(id));
  const unexplained: string[] = [];
  for (const item of before) if (!seen.has(item.id) && !touched.has(item.id)) unexplained.push(item.id);
  if (unexplained.length > 0) internal.recordAll(unexplained, "dropped", `removed by ${plugin} without a recorded reason`);
  return accepted;
}

function itemsHook(hook: ItemsWaterfallHook, label: StageLabel, guard: HookGuard): ItemsHook {
  const register = (options: TapOptions, fn: (items: Items, context: never) => unknown) => {
    const tap = normalizeTapOptions(options, label, guard);
    // This tap's last check per lane: a rebuild's lists start as last build's did.
    const memos = new Map<Lane, InOrderMemo>();
    hook.tapPromise(tap, async (items, context) => {
      const internal = internalsOf(context);
      internal.enterTap(tap.name);
      let returned: unknown;
      try {
        returned = await fn(items, context as never);
      } catch (error) {
        throw wrapThrown(tap.name, label, error);
      }
      // The list it was given, returned as it is, is the list kept: nothing to walk or copy.
      if (returned !== undefined && returned !== items) {
        let memo = memos.get(internal.lane);
        if (memo === undefined) {
          memo = new InOrderMemo();
          memos.set(internal.lane, memo);
        }
        return acceptItems(context, tap.name, label, items, returned, memo);
      }
      if (internal.log.runsFrom(internal.tapStart).some((run) => REMOVALS.has(run.event.decision))) {
        const present = new Set(items.map((item) => item.id));
        checkRecordedRemovals(internal, tap.name, label, (id) => present.has(id));
      }
      return items;
    });
  };
  return Object.freeze({ name: label, tap: register, tapPromise: register }) as ItemsHook;
}

function checkRenderResult(plugin: string, hook: string, result: unknown): RenderResult<unknown> {
  const candidate = result as Partial<RenderResult<unknown>> | null;
  if (typeof candidate !== "object" || candidate === null || !("request" in candidate)) {
    throw failure(plugin, hook, "returned something that is not a render result { request, tokenCount, messageCount }");
  }
  const { tokenCount, messageCount } = candidate;
  if (typeof tokenCount !== "number" || !Number.isFinite(tokenCount) || tokenCount < 0) {
    throw failure(plugin, hook, "returned a render result whose tokenCount is not a non-negative number");
  }
  if (typeof messageCount !== "number" || !Number.isInteger(messageCount) || messageCount < 0) {
    throw failure(plugin, hook, "returned a render result whose messageCount is not a non-negative integer");
  }
  return candidate as RenderResult<unknown>;
}

/** Why a modelLimits tap's answer is not limits { contextWindow, maxInputTokens? }; undefined when it is. */
function modelLimitsProblem(limits: unknown): string | undefined {
  const candidate = limits as Partial<ModelLimits> | null;
  const positiveInteger = (value: unknown) => typeof value === "number" && Number.isInteger(value) && value > 0;
  if (typeof candidate !== "object" || candidate === null || !positiveInteger(candidate.contextWindow)) {
    return "returned something that is not model limits { contextWindow, maxInputTokens? } with a positive whole contextWindow";
  }
  if (candidate.maxInputTokens !== undefined && !positiveInteger(candidate.maxInputTokens)) return "returned model limits whose maxInputTokens is not a positive whole number";
  return undefined;
}

function renderHook(hook: RenderBailHook, renderer: string, guard: HookGuard): RenderHook<unknown> {
  const label = `render:${renderer}`;
  const register = (options: TapOptions, fn: (items: Items, context: never) => unknown) => {
    const tap = normalizeTapOptions(options, label, guard);
    guard.renderers.add(renderer);
    hook.tapPromise(tap, async (items, context) => {
      internalsOf(context).enterTap(tap.name);
      let result: unknown;
      try {
        result = await fn(items, context as never);
      } catch (error) {
        throw wrapThrown(tap.name, label, error);
      }
      return result === undefined ? undefined : checkRenderResult(tap.name, label, result);
    });
  };
  return Object.freeze({ name: label, tap: register, tapPromise: register }) as RenderHook<unknown>;
}

function requestValidateHook(hook: RequestValidateSeriesHook, renderer: string, guard: HookGuard): RequestValidateHook<unknown> {
  const label = `validate-request:${renderer}`;
  const register = (options: TapOptions, fn: (request: unknown, context: never) => unknown) => {
    const tap = normalizeTapOptions(options, label, guard);
    hook.tapPromise(tap, async (request, context) => {
      internalsOf(context).enterTap(tap.name);
      try {
        await fn(request, context as never);
      } catch (error) {
        throw wrapThrown(tap.name, label, error);
      }
    });
  };
  return Object.freeze({ name: label, tap: register, tapPromise: register }) as RequestValidateHook<unknown>;
}

/** A per-renderer hook map: one tap-only hook per renderer name, made on first use. */
function perRenderer<Hook>(make: (renderer: string) => Hook): { for(renderer: string): Hook } {
  const made = new Map<string, Hook>();
  return Object.freeze({
    for(renderer: string) {
      if (typeof renderer !== "string" || renderer.length === 0) throw new TypeError("for() needs a renderer name");
      let hook = made.get(renderer);
      if (hook === undefined) {
        hook = make(renderer);
        made.set(renderer, hook);
      }
      return hook;
    },
  });
}

export function createTapOnlyHooks(raw: RunnableHooks, guard: HookGuard): PipelineHooks {
  const validateLabel: StageLabel = "validate";
  return Object.freeze({
    compress: itemsHook(raw.compress, "compress", guard),
    filter: itemsHook(raw.filter, "filter", guard),
    repairOrphans: itemsHook(raw.repairOrphans, "repair-orphans", guard),
    insertSystem: itemsHook(raw.insertSystem, "insert-system", guard),
    validate: Object.freeze({
      name: validateLabel,
      tap: (options: TapOptions, fn: (items: Items, context: never) => unknown) => register(options, fn),
      tapPromise: (options: TapOptions, fn: (items: Items, context: never) => unknown) => register(options, fn),
    }),
    render: perRenderer((renderer) => renderHook(raw.render.for(renderer), renderer, guard)),
    validateRequest: perRenderer((renderer) => requestValidateHook(raw.validateRequest.for(renderer), renderer, guard)),
    tokenizer: Object.freeze({
      name: "tokenizer",
      tap(options: TapOptions, fn: (request: Parameters<Parameters<RunnableHooks["tokenizer"]["tap"]>[1]>[0]) => Tokenizer | undefined) {
        const tap = normalizeTapOptions(options, "tokenizer", guard);
        raw.tokenizer.tap(tap, (request) => {
          let tokenizer: unknown;
          try {
            tokenizer = fn(request);
          } catch (error) {
            throw wrapThrown(tap.name, "tokenizer", error);
          }
          if (tokenizer === undefined) return undefined;
          if (!isTokenizer(tokenizer)) throw failure(tap.name, "tokenizer", "returned something that is not a tokenizer { name, exact, count(text) }");
          return guardTokenizer(tokenizer, tap.name);
        });
      },
    }),
    modelLimits: Object.freeze({
      name: "modelLimits",
      tap(options: TapOptions, fn: (request: ModelLimitsRequest) => ModelLimits | undefined) {
        const tap = normalizeTapOptions(options, "modelLimits", guard);
        raw.modelLimits.tap(tap, (request) => {
          let limits: unknown;
          try {
            limits = fn(request);
          } catch (error) {
            throw wrapThrown(tap.name, "modelLimits", error);
          }
          if (limits === undefined) return undefined;
          const problem = modelLimitsProblem(limits);
          if (problem !== undefined) throw failure(tap.name, "modelLimits", problem);
          return limits as ModelLimits;
        });
      },
    }),
  }) as PipelineHooks;

  function register(options: TapOptions, fn: (items: Items, context: never) => unknown): void {
    const tap = normalizeTapOptions(options, validateLabel, guard);
    raw.validate.tapPromise(tap, async (items, context) => {
      internalsOf(context).enterTap(tap.name);
      try {
        await fn(items, context as never);
      } catch (error) {
        throw wrapThrown(tap.name, validateLabel, error);
      }
    });
  }
}
