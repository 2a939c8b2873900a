// The summary item sent in place of the messages a record covers. The same record gives the same item
// object on every build, so token counts and rendered messages are reused.
import type { ItemOf } from "@ctxpipe/core";
import type { SummaryRecord } from "./summary-record.js";

const made = new Map<string, ItemOf<"summary">>();
const MAX_KEPT = 256;

export function summaryItemOf(record: SummaryRecord): ItemOf<"summary"> {
  const key = JSON.stringify([record.id, record.summary, record.coveredIds, record.sourceTokenCount, record.createdAt]);
  let item = made.get(key);
  if (item === undefined) {
    item = Object.freeze({
      id: record.id,
      type: "summary",
      role: "system",
      text: record.summary,
      coveredIds: Object.freeze([...record.coveredIds]) as string[],
      originalCount: record.coveredIds.length,
      ...(record.sourceTokenCount === undefined ? {} : { sourceTokenCount: record.sourceTokenCount }),
      // Without a date, the XML renderer dates it from the messages it covers.
      ...(record.createdAt === undefined ? {} : { compactedAt: Date.parse(record.createdAt) }),
      metadata: Object.freeze({}),
    }) as ItemOf<"summary">;
    if (made.size >= MAX_KEPT) made.delete(made.keys().next().value!);
    made.set(key, item);
  }
  return item;
}
