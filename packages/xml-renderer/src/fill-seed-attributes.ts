// Items imported from chat messages lack some attributes the XML chunk tags always carry. Before
// rendering, the plugin fills them from the rest of the conversation, deterministically (never from
// the clock), so the same items always give the same text:
// - a call's `status` (a stored one is kept): "failed" when the conversation's real result for it is
//   an error, "completed" when it holds another real result, else "pending";
// - a summary's `compactedAt`: its createdAt, else the newest createdAt of the items it covers,
//   else none (the attribute is left out: there is no honest value).
// SYSTEM chunks' `priority` has a fixed default instead (SYSTEM_CONTEXT_DEFAULT_PRIORITY).
import type { Item, ItemOf } from "@ctxpipe/core";

const SYNTHESIZED = "ctxpipe:";

/** Reuses a filled copy while its filled values are unchanged, so per-item caches keep hitting. */
export type FilledItemCache = WeakMap<Item, { readonly key: string; readonly item: Item }>;

function epochMilliseconds(date: string | undefined): number | undefined {
  if (date === undefined) return undefined;
  const time = Date.parse(date);
  return Number.isNaN(time) ? undefined : time;
}

/**
 * `items` with the missing attributes filled; `conversation` is where results and covered items are
 * looked up (the build's input items, so a selection option never changes a call's status).
 */
export function fillSeedAttributes(items: ReadonlyArray<Item>, conversation: ReadonlyArray<Item>, cache: FilledItemCache): Item[] {
  let answered: Map<string, boolean> | undefined;
  let createdAtById: Map<string, number> | undefined;
  const answeredCalls = () => {
    // By call id, whether its result is an error; the last real result for a call says how it ended.
    answered ??= new Map(conversation.flatMap((item) => (item.type === "tool-result" && !item.id.startsWith(SYNTHESIZED) ? [[item.callId, item.isError] as const] : [])));
    return answered;
  };
  const createdAt = () => {
    createdAtById ??= new Map(conversation.flatMap((item) => {
      const time = epochMilliseconds(item.createdAt);
      return time === undefined ? [] : [[item.id, time] as const];
    }));
    return createdAtById;
  };
  return items.map((item) => {
    if (item.type === "assistant" && item.toolCalls.some((call) => call.status === undefined)) {
      const statuses = item.toolCalls.map((call) => {
        if (call.status !== undefined) return call.status;
        const failed = answeredCalls().get(call.id);
        return failed === undefined ? "pending" : failed ? "failed" : "completed";
      });
      return reuse(cache, item, statuses.join("\u0000"), (): ItemOf<"assistant"> => ({ ...item, toolCalls: item.toolCalls.map((call, index) => ({ ...call, status: statuses[index]! })) }));
    }
    if (item.type === "summary" && item.compactedAt === undefined) {
      const covered = item.coveredIds.map((id) => createdAt().get(id)).filter((time) => time !== undefined);
      const compactedAt = epochMilliseconds(item.createdAt) ?? (covered.length > 0 ? Math.max(...covered) : undefined);
      if (compactedAt === undefined) return item;
      return reuse(cache, item, String(compactedAt), (): ItemOf<"summary"> => ({ ...item, compactedAt }));
    }
    return item;
  });
}

function reuse(cache: FilledItemCache, item: Item, key: string, fill: () => Item): Item {
  const known = cache.get(item);
  if (known !== undefined && known.key === key) return known.item;
  const filled = fill();
  cache.set(item, { key, item: filled });
  return filled;
}
