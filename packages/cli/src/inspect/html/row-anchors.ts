// Each timeline row gets an anchor made from its position, not its id: ids come from the input and can
// hold anything, an anchor must be a safe fragment. Summaries and related ids link to rows through this.
import type { TimelineRow } from "../inspection.js";

export function rowAnchors(timeline: ReadonlyArray<TimelineRow>): ReadonlyMap<string, string> {
  const anchors = new Map<string, string>();
  timeline.forEach((row, index) => {
    if (!anchors.has(row.id)) anchors.set(row.id, `row-${index}`);
  });
  return anchors;
}
