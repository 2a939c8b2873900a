// Summaries over the newest turn: a stored summary whose range (`fromId`/`toId`, or a `coveredIds` list) reaches the newest user message, or past it to the end, as stores write them when they compact everything.
import type fc from "fast-check";
import type { ItemInput } from "../../model/item.js";

type FastCheck = typeof fc;
type Loose = ItemInput & { type?: string; id?: string; text?: string };

/** The id of the summary added; chosen so that no generated item has it. */
export const SUMMARY_OVER_NEWEST_ID = "summary-over-newest";

/**
 * Adds one summary item covering items from a chosen start to the newest user message (or to the
 * last item), as a range or as a list, placed at the end or right after what it covers. A list with
 * no user message is returned as it is. Items are never changed, only one is added.
 */
export function summariesOverNewest(fc: FastCheck): fc.Arbitrary<(items: ItemInput[]) => ItemInput[]> {
  return fc
    .record({
      start: fc.nat({ max: 1000 }),
      end: fc.constantFrom("newest-user" as const, "last" as const),
      form: fc.constantFrom("range" as const, "list" as const),
      place: fc.constantFrom("end" as const, "after-range" as const),
    })
    .map(({ start, end, form, place }) => (items: ItemInput[]) => {
      let newestUser = -1;
      for (let position = items.length - 1; position >= 0 && newestUser < 0; position--) {
        const item = items[position] as Loose;
        if (item.type === "user" && typeof item.text === "string" && item.text.trim().length > 0) newestUser = position;
      }
      if (newestUser < 0) return items;
      const to = end === "last" ? items.length - 1 : newestUser;
      const from = Math.floor((start / 1001) * (to + 1));
      const covered = items.slice(from, to + 1).map((item) => (item as Loose).id!);
      const summary: ItemInput =
        form === "range"
          ? { id: SUMMARY_OVER_NEWEST_ID, type: "summary", text: "Everything so far, summarized.", fromId: covered[0]!, toId: covered.at(-1)! }
          : { id: SUMMARY_OVER_NEWEST_ID, type: "summary", text: "Everything so far, summarized.", coveredIds: covered };
      const at = place === "end" ? items.length : to + 1;
      return [...items.slice(0, at), summary, ...items.slice(at)];
    });
}
