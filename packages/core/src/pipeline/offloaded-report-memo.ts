// report.offloaded and its warnings, worked out from last build's answer. An agent loop reads them
// every turn, and every turn the compression chain offloads nearly the same thousands of texts (the
// same cleared results) as the turn before: a text whose item's history counts the same as last time
// (changed-ids.ts) keeps last build's outcome and its place in input order; only new texts and those of
// items whose decisions changed are looked at. The answer is the from-scratch one (inInputOrder, then
// withholdOffloaded), which a property test holds it to.
import type { Item } from "../model/item.js";
import type { OffloadedText, ReportEvent } from "./build-report.js";
import { changedIds } from "./changed-ids.js";
import { eventsIn, type LogSnapshot } from "./event-log.js";
import { sharedPrefixLength } from "./input-preparer.js";
import { type OffloadOutcome, offloadOutcome, sameForOffloading, withheldWarning } from "./withhold-offloaded.js";

export interface OffloadedInput {
  /** The build's offloaded texts, each handle once, in the order recorded. */
  readonly texts: ReadonlyMap<string, OffloadedText>;
  /** The input items, each id once (as the build parsed them): the texts go in their order. */
  readonly inputItems: ReadonlyArray<Item>;
  /** The build's decisions. */
  readonly log: LogSnapshot;
  /** The decisions of the policy view's run over the input; none when it did not run. */
  readonly policy: LogSnapshot | undefined;
  /** Whether the request names a handle (asked only for texts a structural fix removed). */
  readonly namedInRequest: (handle: string) => boolean;
}

export interface OffloadedAnswer {
  readonly offloaded: OffloadedText[];
  readonly warnings: string[];
}

/** One text's outcome, with its warning once made. */
interface Verdict {
  readonly outcome: OffloadOutcome;
  warning?: string;
}

interface Known {
  /** The texts in the order recorded, and by the same index their verdicts and input positions (Infinity: not an input item). */
  readonly texts: ReadonlyArray<OffloadedText>;
  readonly verdicts: ReadonlyArray<Verdict>;
  readonly positions: ReadonlyArray<number>;
  /** Indexes of the texts in input order. */
  readonly order: ReadonlyArray<number>;
  readonly inputItems: ReadonlyArray<Item>;
  readonly log: LogSnapshot;
  readonly policy: LogSnapshot;
  /** The answer as indexes, kept when no text's outcome depends on the request. */
  readonly answer: { readonly kept: ReadonlyArray<number>; readonly warnings: ReadonlyArray<string> } | undefined;
  /** The indexes of each item's texts, made when first needed. */
  byItem?: ReadonlyMap<string, ReadonlyArray<number>>;
}

const NO_RUNS: LogSnapshot = { runs: [], length: 0 };
const NONE: ReadonlyArray<ReportEvent> = [];
const KEPT: Verdict = { outcome: { kind: "kept" } };
const SILENT: Verdict = { outcome: { kind: "silent" } };
const IF_NAMED: Verdict = { outcome: { kind: "if-named" } };

/** One per pipeline: each build's answer is worked out from the last one computed. */
export class OffloadedReportMemo {
  #known: Known | undefined;

  answer(input: OffloadedInput): OffloadedAnswer {
    if (input.texts.size === 0) {
      this.#known = undefined;
      return { offloaded: [], warnings: [] };
    }
    const texts = [...input.texts.values()];
    const count = texts.length;
    const policy = input.policy ?? NO_RUNS;
    const inputItems = input.inputItems;
    const known = this.#known;

    // Per text: last build's verdict and position where they still hold; undefined and NaN to find.
    let verdicts: Array<Verdict | undefined>;
    let positions: number[];
    let byItem: ReadonlyMap<string, ReadonlyArray<number>> | undefined;
    let shared = 0;
    let sameTexts = false;
    if (known === undefined) {
      verdicts = new Array<Verdict | undefined>(count).fill(undefined);
      positions = new Array<number>(count).fill(Number.NaN);
    } else {
      const changed = changedIds(known.log, input.log, sameForOffloading);
      for (const id of changedIds(known.policy, policy, sameForOffloading)) changed.add(id);
      // Input items keep their positions up to where the list stops being last build's.
      shared = sharedPrefixLength(inputItems, known.inputItems);
      sameTexts = count === known.texts.length && texts.every((text, index) => sameText(text, known.texts[index]!));
      if (sameTexts) {
        verdicts = known.verdicts.slice();
        positions = known.positions.slice();
        byItem = known.byItem ??= indexesByItem(known.texts);
        if (changed.size < count) {
          for (const id of changed) for (const index of byItem.get(id) ?? []) verdicts[index] = undefined;
        } else {
          for (let index = 0; index < count; index++) if (changed.has(texts[index]!.itemId)) verdicts[index] = undefined;
        }
        // Positions at or past the first item that changed, last in input order, are found again.
        for (let at = known.order.length - 1; at >= 0 && known.positions[known.order[at]!]! >= shared; at--) positions[known.order[at]!] = Number.NaN;
      } else {
        verdicts = new Array<Verdict | undefined>(count);
        positions = new Array<number>(count);
        const knownByHandle = new Map<string, number>();
        for (let index = 0; index < known.texts.length; index++) knownByHandle.set(known.texts[index]!.handle, index);
        for (let index = 0; index < count; index++) {
          const text = texts[index]!;
          const was = knownByHandle.get(text.handle);
          const same = was !== undefined && known.texts[was]!.itemId === text.itemId;
          verdicts[index] = same && !changed.has(text.itemId) ? known.verdicts[was]! : undefined;
          positions[index] = same && known.positions[was]! < shared ? known.positions[was]! : Number.NaN;
        }
      }
    }
    byItem ??= indexesByItem(texts);

    const moved = findPositions(positions, inputItems, shared, byItem, known === undefined || !sameTexts);
    const order = sameTexts && !moved ? known!.order : inputOrder(positions, inputItems.length);
    const recomputed = judge(verdicts, texts, input.log, policy);

    let answer: Known["answer"];
    let offloaded: OffloadedText[];
    let warnings: string[];
    if (sameTexts && !moved && !recomputed && known!.answer !== undefined) {
      answer = known!.answer;
      offloaded = answer.kept.map((index) => texts[index]!);
      warnings = answer.warnings.slice();
    } else {
      const kept: number[] = [];
      warnings = [];
      let asksRequest = false;
      for (const index of order) {
        const verdict = verdicts[index]!;
        const { outcome } = verdict;
        if (outcome.kind === "kept") kept.push(index);
        else if (outcome.kind === "if-named") {
          asksRequest = true;
          if (input.namedInRequest(texts[index]!.handle)) kept.push(index);
        } else if (outcome.kind === "warned") {
          verdict.warning ??= withheldWarning(texts[index]!, outcome.event);
          warnings.push(verdict.warning);
        }
      }
      answer = asksRequest ? undefined : { kept, warnings: warnings.slice() };
      offloaded = kept.map((index) => texts[index]!);
    }
    this.#known = {
      texts,
      verdicts: verdicts as Verdict[],
      positions,
      order,
      inputItems,
      log: input.log,
      policy,
      answer,
      ...(byItem === undefined ? {} : { byItem }),
    };
    return { offloaded, warnings };
  }
}

/** The same text for an outcome and a place in the order: the same handle of the same item. */
function sameText(text: OffloadedText, known: OffloadedText): boolean {
  return text === known || (text.handle === known.handle && text.itemId === known.itemId);
}

function indexesByItem(texts: ReadonlyArray<OffloadedText>): Map<string, number[]> {
  const byItem = new Map<string, number[]>();
  texts.forEach((text, index) => {
    const indexes = byItem.get(text.itemId);
    if (indexes === undefined) byItem.set(text.itemId, [index]);
    else indexes.push(index);
  });
  return byItem;
}

/**
 * Fills the positions left NaN: input ids are unique, so an item before `shared` is where it was (and
 * nowhere else), and one that was past it or not an input item is now past it or nowhere. Only texts
 * not known before (`newTexts`) can belong to an item before `shared` not yet looked up. Returns
 * whether any position was found again.
 */
function findPositions(
  positions: number[],
  inputItems: ReadonlyArray<Item>,
  shared: number,
  byItem: ReadonlyMap<string, ReadonlyArray<number>>,
  newTexts: boolean,
): boolean {
  let missing = 0;
  for (const position of positions) if (Number.isNaN(position)) missing++;
  if (missing === 0) return false;
  const found = (from: number, to: number) => {
    for (let position = from; position < to && missing > 0; position++) {
      for (const index of byItem.get(inputItems[position]!.id) ?? []) {
        if (!Number.isNaN(positions[index]!)) continue;
        positions[index] = position;
        missing--;
      }
    }
  };
  found(shared, inputItems.length);
  if (missing > 0 && newTexts && shared > 0) found(0, shared);
  for (let index = 0; index < positions.length; index++) if (Number.isNaN(positions[index]!)) positions[index] = Number.POSITIVE_INFINITY;
  return true;
}

/** Text indexes by the input position of their item, texts of one item (and of no input item) in the order recorded. */
function inputOrder(positions: ReadonlyArray<number>, inputLength: number): number[] {
  const order = positions.map((_, index) => index);
  const place = (index: number) => (positions[index] === Number.POSITIVE_INFINITY ? inputLength : positions[index]!);
  return order.sort((left, right) => place(left) - place(right) || left - right);
}

/** Works out the verdicts left undefined, reading the histories of their items only. Returns whether there were any. */
function judge(verdicts: Array<Verdict | undefined>, texts: ReadonlyArray<OffloadedText>, log: LogSnapshot, policy: LogSnapshot): boolean {
  const wanted = new Set<string>();
  for (let index = 0; index < verdicts.length; index++) if (verdicts[index] === undefined) wanted.add(texts[index]!.itemId);
  if (wanted.size === 0) return false;
  const events = eventsIn(log, wanted);
  const policyEvents = eventsIn(policy, wanted);
  for (let index = 0; index < verdicts.length; index++) {
    if (verdicts[index] !== undefined) continue;
    const id = texts[index]!.itemId;
    const outcome = offloadOutcome(events.get(id) ?? NONE, policyEvents.get(id));
    verdicts[index] = outcome.kind === "kept" ? KEPT : outcome.kind === "silent" ? SILENT : outcome.kind === "if-named" ? IF_NAMED : { outcome };
  }
  return true;
}
