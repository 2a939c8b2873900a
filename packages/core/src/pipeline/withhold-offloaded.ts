// Offloaded text is what the model can read back (retrieve_context), so it is a model's input too:
// a text cut or cleared before a later stage left its item out (includeInContext: false, a user's
// filter) or rewrote it (a redaction plugin) is the very text that stage kept from the model. Such
// texts are withheld from report.offloaded, with a warning when a stage after compress did it (the
// marker's handle then reads as unknown, which is the point); a text whose item compress itself went
// on to drop or summarize (the window after clearing) is not in the request to be asked for, and goes
// without a word.
import type { OffloadedText, ReportEvent } from "./build-report.js";

const SHORTENING: ReadonlySet<string> = new Set(["cleared", "truncated"]);
const REMOVING: ReadonlySet<string> = new Set(["dropped", "summarized"]);
// Plugins that change items for structure only (ids, pairing, provider limits), never for policy.
const STRUCTURAL: ReadonlySet<string> = new Set(["RepairOrphansPlugin", "HardLimitsPlugin"]);
const NONE: ReadonlyArray<ReportEvent> = [];

/**
 * `events`: the build's decisions by item id. `policy`: the decisions of the policy view's run over
 * the input (filter, repair-orphans, insert-system), which see the original where the build's own
 * stages saw only a placeholder: a redaction there means the original is not the model's to read.
 */
export function withholdOffloaded(
  offloaded: ReadonlyArray<OffloadedText>,
  events: ReadonlyMap<string, ReadonlyArray<ReportEvent>>,
  policy: ReadonlyMap<string, ReadonlyArray<ReportEvent>> = new Map(),
  namedInRequest: (handle: string) => boolean = () => false,
): { offloaded: ReadonlyArray<OffloadedText>; warnings: string[] } {
  if (offloaded.length === 0) return { offloaded, warnings: [] };
  const kept: OffloadedText[] = [];
  const warnings: string[] = [];
  for (const text of offloaded) {
    const history = events.get(text.itemId) ?? NONE;
    let after = 0;
    for (let index = history.length - 1; index >= 0; index--) {
      if (SHORTENING.has(history[index]!.decision)) {
        after = index + 1;
        break;
      }
    }
    // A loop reads this every turn over thousands of cleared results: no copy or closure per text.
    const later = firstDecisive(history, after) ?? firstDecisive(policy.get(text.itemId), 0);
    if (later === undefined) {
      kept.push(text);
      continue;
    }
    if (STRUCTURAL.has(later.plugin)) {
      // Another item the request still sends may hold the same text (a result stored twice): its
      // marker names the handle, so the text stays readable; otherwise nothing names it.
      if (namedInRequest(text.handle)) kept.push(text);
      continue;
    }
    if (later.stage === "compress" && later.decision !== "repaired") continue;
    warnings.push(
      `[ctxpipe] the text of item "${text.itemId}" kept as ${text.handle} is not offloaded: ${later.plugin} then ${later.decision === "repaired" ? "rewrote" : "left out"} the item (${later.stage}: ${later.reason}), so the model may not read it back`,
    );
  }
  return { offloaded: kept, warnings };
}

/**
 * The first event from `from` on that decides whether a shortened text stays readable. A cut or a
 * structural fix (ids, pairing, a provider's string limit) keeps the text the model's to read; a
 * structural removal (an orphaned result dropped) does not: the stages after it never saw the item, so
 * nothing says a policy of theirs would have let the original through.
 */
function firstDecisive(history: ReadonlyArray<ReportEvent> | undefined, from: number): ReportEvent | undefined {
  if (history === undefined) return undefined;
  for (let index = from; index < history.length; index++) {
    const event = history[index]!;
    if (event.decision !== "kept" && !SHORTENING.has(event.decision) && (!STRUCTURAL.has(event.plugin) || REMOVING.has(event.decision))) return event;
  }
  return undefined;
}
