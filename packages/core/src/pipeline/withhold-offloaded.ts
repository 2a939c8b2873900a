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
 * What becomes of one offloaded text: listed; left out without a word; listed only if the request
 * names its handle (a structural removal); or left out with a warning naming the event that did it.
 */
export type OffloadOutcome = { readonly kind: "kept" } | { readonly kind: "silent" } | { readonly kind: "if-named" } | { readonly kind: "warned"; readonly event: ReportEvent };

const KEPT: OffloadOutcome = { kind: "kept" };
const SILENT: OffloadOutcome = { kind: "silent" };
const IF_NAMED: OffloadOutcome = { kind: "if-named" };

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
    const outcome = offloadOutcome(events.get(text.itemId) ?? NONE, policy.get(text.itemId));
    if (outcome.kind === "kept" || (outcome.kind === "if-named" && namedInRequest(text.handle))) kept.push(text);
    else if (outcome.kind === "warned") warnings.push(withheldWarning(text, outcome.event));
  }
  return { offloaded: kept, warnings };
}

/** The outcome for a text of an item with this history in the build and in the policy view. */
export function offloadOutcome(history: ReadonlyArray<ReportEvent>, policy: ReadonlyArray<ReportEvent> | undefined): OffloadOutcome {
  let after = 0;
  for (let index = history.length - 1; index >= 0; index--) {
    if (SHORTENING.has(history[index]!.decision)) {
      after = index + 1;
      break;
    }
  }
  // A loop reads this every turn over thousands of cleared results: no copy or closure per text.
  const later = firstDecisive(history, after) ?? firstDecisive(policy, 0);
  if (later === undefined) return KEPT;
  // Another item the request still sends may hold the same text (a result stored twice): its
  // marker names the handle, so the text stays readable; otherwise nothing names it.
  if (STRUCTURAL.has(later.plugin)) return IF_NAMED;
  if (later.stage === "compress" && later.decision !== "repaired") return SILENT;
  return { kind: "warned", event: later };
}

export function withheldWarning(text: OffloadedText, later: ReportEvent): string {
  return `[ctxpipe] the text of item "${text.itemId}" kept as ${text.handle} is not offloaded: ${later.plugin} then ${later.decision === "repaired" ? "rewrote" : "left out"} the item (${later.stage}: ${later.reason}), so the model may not read it back`;
}

/**
 * Whether two events count the same for every outcome above, wherever they stand in a history: the
 * same kind (a cut, a decision that does not count, a structural removal, a removal by compress, or
 * one that warns) and, for one that warns, the same words. A window's drop names the request's size,
 * which changes every build; for its texts, which go without a word, it is the same drop.
 */
export function sameForOffloading(left: ReportEvent, right: ReportEvent): boolean {
  if (left === right) return true;
  // The kind follows from the decision, the stage and the plugin: alike, only the words may differ.
  if (left.decision === right.decision && left.stage === right.stage && left.plugin === right.plugin) {
    // Thousands of cleared results are compared every turn: a cut counts the same whatever its words.
    return left.decision === "cleared" || left.decision === "truncated" || kindOf(left) !== WARNS || left.reason === right.reason;
  }
  const kind = kindOf(left);
  if (kind !== kindOf(right)) return false;
  return kind !== WARNS || (left.plugin === right.plugin && left.stage === right.stage && left.reason === right.reason && (left.decision === "repaired") === (right.decision === "repaired"));
}

const SHORTENS = 0;
const DOES_NOT_COUNT = 1;
const STRUCTURAL_REMOVAL = 2;
const COMPRESS_REMOVAL = 3;
const WARNS = 4;

function kindOf(event: ReportEvent): number {
  if (SHORTENING.has(event.decision)) return SHORTENS;
  if (!isDecisive(event)) return DOES_NOT_COUNT;
  if (STRUCTURAL.has(event.plugin)) return STRUCTURAL_REMOVAL;
  if (event.stage === "compress" && event.decision !== "repaired") return COMPRESS_REMOVAL;
  return WARNS;
}

/**
 * Whether an event decides whether a shortened text stays readable. A cut or a structural fix (ids,
 * pairing, a provider's string limit) keeps the text the model's to read; a structural removal (an
 * orphaned result dropped) does not: the stages after it never saw the item, so nothing says a policy
 * of theirs would have let the original through.
 */
function isDecisive(event: ReportEvent): boolean {
  return event.decision !== "kept" && !SHORTENING.has(event.decision) && (!STRUCTURAL.has(event.plugin) || REMOVING.has(event.decision));
}

/** The first decisive event from `from` on. */
function firstDecisive(history: ReadonlyArray<ReportEvent> | undefined, from: number): ReportEvent | undefined {
  if (history === undefined) return undefined;
  for (let index = from; index < history.length; index++) {
    const event = history[index]!;
    if (isDecisive(event)) return event;
  }
  return undefined;
}
