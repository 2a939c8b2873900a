// Anthropic rules on prompt cache breakpoints beyond their count and empty blocks (ANT-013, ANT-021
// in anthropic-content-rules.ts): the order of their lifetimes, and a prefix too short to cache.
import type { Rule } from "@ctxpipe/core";
import { isRecord, wherePath } from "./anthropic-message-view.js";
import { listedMinimumCacheableTokens, SMALLEST_MINIMUM_CACHEABLE_TOKENS } from "./anthropic-minimum-cacheable-tokens.js";

/** A block, tool definition or system block, in the order the cache reads the request. */
interface CacheUnit {
  readonly path: string;
  readonly value: unknown;
}

/** Block types whose tokens their JSON does not bound (an image by URL is short JSON and ~1,600 tokens). */
const MEDIA_TYPES: ReadonlySet<unknown> = new Set(["image", "document", "search_result", "container_upload"]);

/** Tools, then system, then messages: the order Anthropic processes them (its error says so). Lazy: a walk that stops early reads only the start. */
function* cacheUnitsOf(request: unknown): Generator<CacheUnit> {
  if (!isRecord(request)) return;
  function* list(value: unknown, path: string): Generator<CacheUnit> {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) yield { path: `${path}[${index}]`, value: value[index] };
    } else if (value !== undefined) yield { path, value };
  }
  yield* list(request.tools, "tools");
  yield* list(request.system, "system");
  if (!Array.isArray(request.messages)) return;
  const messages: unknown[] = request.messages;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (isRecord(message)) yield* list(message.content, `messages[${index}].content`);
  }
}

/** The cache_control markers inside a unit (a tool_result's own, then those of its content blocks). */
function markersIn(unit: CacheUnit): Array<{ path: string; marker: unknown }> {
  if (!isRecord(unit.value)) return [];
  const found: Array<{ path: string; marker: unknown }> = [];
  if (unit.value.cache_control !== undefined && unit.value.cache_control !== null) found.push({ path: `${unit.path}.cache_control`, marker: unit.value.cache_control });
  const content = unit.value.type === "tool_result" ? unit.value.content : undefined;
  if (Array.isArray(content)) {
    content.forEach((block: unknown, index) => {
      if (isRecord(block) && block.cache_control !== undefined && block.cache_control !== null) found.push({ path: `${unit.path}.content[${index}].cache_control`, marker: block.cache_control });
    });
  }
  return found;
}

export const cacheTtlsLongestFirst: Rule<unknown> = {
  id: "ANT-027",
  level: "error",
  requires: "a cache_control breakpoint with ttl 1h does not come after one with ttl 5m (or none, which means 5m), reading tools, then system, then messages",
  providerError:
    "messages.0.content.4.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.",
  check(request, report) {
    let fiveMinutes: string | undefined;
    for (const unit of cacheUnitsOf(request)) {
      for (const { path, marker } of markersIn(unit)) {
        const ttl = isRecord(marker) ? marker.ttl : undefined;
        if (ttl === "1h" && fiveMinutes !== undefined) report({ message: `a ttl "1h" breakpoint comes after the 5-minute one at ${fiveMinutes}`, ...wherePath(`${path}.ttl`) });
        else if (ttl === undefined || ttl === "5m") fiveMinutes ??= path;
      }
    }
  },
};

const encoder = new TextEncoder();

function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return undefined;
  }
}

const isMedia = (value: unknown): boolean =>
  isRecord(value) && (MEDIA_TYPES.has(value.type) || (Array.isArray(value.content) && value.content.some((block: unknown) => isRecord(block) && MEDIA_TYPES.has(block.type))));

/**
 * The blocks (by path) at whose end the request is surely shorter than `minimum` tokens: each token
 * holds at least one byte of the request's JSON, so a prefix of fewer bytes is too short. The walk
 * stops once the bytes reach the minimum, or at a media block, whose tokens its JSON does not bound.
 */
export function surelyTooShortToCache(request: unknown, minimum: number): Map<string, number> {
  const short = new Map<string, number>();
  let bytes = 0;
  for (const unit of cacheUnitsOf(request)) {
    if (isMedia(unit.value)) break;
    const json = typeof unit.value === "string" ? unit.value : jsonOf(unit.value);
    // A value JSON cannot write (a cycle, a bigint) is no request: other rules say so.
    if (json === undefined) break;
    bytes += encoder.encode(json).length;
    if (bytes >= minimum) break;
    short.set(unit.path, bytes);
  }
  return short;
}

/** The minimum the rule holds a request to: its model's, or the smallest of any model for a model not listed. */
export function minimumForCheck(request: unknown, model: string | undefined): number {
  const named = model ?? (isRecord(request) && typeof request.model === "string" ? request.model : undefined);
  return listedMinimumCacheableTokens(named) ?? SMALLEST_MINIMUM_CACHEABLE_TOKENS;
}

export const cacheBreakpointsLongEnough: Rule<unknown> = {
  id: "ANT-028",
  level: "strict",
  requires: "a cache_control breakpoint ends a prefix at least as long as the model's minimum cacheable length; a shorter one is accepted but caches nothing",
  check(request, report, env) {
    const minimum = minimumForCheck(request, env.model);
    const short = surelyTooShortToCache(request, minimum);
    if (short.size === 0) return;
    for (const unit of cacheUnitsOf(request)) {
      const bytes = short.get(unit.path);
      if (bytes === undefined) break;
      const marker = markersIn(unit)[0];
      if (marker !== undefined) {
        report({ message: `the request up to this breakpoint is ${bytes} bytes, so at most ${bytes} tokens: below the ${minimum} tokens the model caches at least, nothing is cached here`, ...wherePath(marker.path) });
      }
    }
  },
};
