// Compares a request with the previous build's, part by part in the order a provider's prompt cache
// reads them, to say where the reusable prefix ends. Parts the renderer reused are the same object
// and cost nothing; others are compared as JSON would serialize them, key order included, since a
// cache matches bytes.
import type { CacheReport } from "./build-report.js";
import type { RequestPrefix, RequestPrefixTokens } from "./stage-context.js";

function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "object" || typeof right !== "object" || left === null || right === null) {
    // JSON drops undefined members and writes non-finite numbers as null; close enough for a request.
    return false;
  }
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left)) {
    const other = right as unknown[];
    if (left.length !== other.length) return false;
    for (let index = 0; index < left.length; index++) if (!sameJson(left[index], other[index])) return false;
    return true;
  }
  const leftKeys = Object.keys(left).filter((key) => (left as Record<string, unknown>)[key] !== undefined);
  const rightKeys = Object.keys(right).filter((key) => (right as Record<string, unknown>)[key] !== undefined);
  if (leftKeys.length !== rightKeys.length) return false;
  for (let index = 0; index < leftKeys.length; index++) {
    const key = leftKeys[index]!;
    if (key !== rightKeys[index]) return false;
    if (!sameJson((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key])) return false;
  }
  return true;
}

export const NOT_COMPARED: CacheReport = Object.freeze({ compared: false, breaksAt: undefined, sameMessages: 0, previousMessages: 0 });

/** Tokens of all of a prefix's parts. */
function totalTokens(tokens: RequestPrefixTokens): number {
  return tokens.tools + tokens.system + (tokens.messagesBefore[tokens.messagesBefore.length - 1] ?? 0);
}

/** Tokens of the previous request a cache can reuse: whole parts up to the first that differs. */
function reusableTokens(previous: RequestPrefixTokens, breaksAt: CacheReport["breaksAt"], sameMessages: number): number {
  if (breaksAt === "tools") return 0;
  if (breaksAt === "system") return previous.tools;
  return previous.tools + previous.system + (previous.messagesBefore[sameMessages] ?? 0);
}

/** The token fields and breakpoints of a report, present only when the renderer gave them. */
function extras(previous: RequestPrefix | undefined, current: RequestPrefix | undefined, breaksAt: CacheReport["breaksAt"], sameMessages: number) {
  const tokens = previous?.tokens;
  return {
    ...(current?.tokens === undefined ? {} : { reusableTokens: tokens === undefined ? 0 : reusableTokens(tokens, breaksAt, sameMessages), previousTokens: tokens === undefined ? 0 : totalTokens(tokens) }),
    ...(current?.breakpoints === undefined ? {} : { breakpoints: current.breakpoints }),
  };
}

export function comparePrefix(previous: RequestPrefix | undefined, current: RequestPrefix | undefined): CacheReport {
  if (previous === undefined || current === undefined) {
    const report = extras(undefined, current, undefined, 0);
    return Object.keys(report).length === 0 ? NOT_COMPARED : { ...NOT_COMPARED, ...report };
  }
  const previousMessages = previous.messages.length;
  const shared = Math.min(previousMessages, current.messages.length);
  let sameMessages = 0;
  while (sameMessages < shared && sameJson(previous.messages[sameMessages], current.messages[sameMessages])) sameMessages++;
  let breaksAt: CacheReport["breaksAt"];
  if (!sameJson(previous.tools, current.tools)) breaksAt = "tools";
  else if (!sameJson(previous.system, current.system)) breaksAt = "system";
  else if (sameMessages < previousMessages) breaksAt = "messages";
  return { compared: true, breaksAt, sameMessages, previousMessages, ...extras(previous, current, breaksAt, sameMessages) };
}
