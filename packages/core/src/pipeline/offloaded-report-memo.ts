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
import { sharedPrefixLength } from "./list-lineage.js";
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
}

const NO_RUNS: LogSnapshot = { runs: [], length: 0 };
const NONE: ReadonlyArray<ReportEvent> = [];
const KEPT: Verdict = { outcome: { kind: "kept" } };
const SILENT: Verdict = { outcome: { kind: "silent" } };
const IF_NAMED: Verdict = { outcome: { kind: "if-named" } };
/** How far ahead a text that matches nothing is looked for (a few texts added or gone). */
const LOOKAHEAD = 16;

/**
 * One per pipeline: each build's answer is worked out from the last one computed. Nothing here makes
 * a map or set as large as the list of texts on a build that only repeats the last: V8 makes a map of
 * more than about 4,000 entries twenty times slower than one of half that size.
 */
export class OffloadedReportMemo {
  #known: Known | undefined;

  answer(input: OffloadedInput): OffloadedAnswer {
    const texts = [...input.texts.values()];
    const count = texts.length;
    if (count === 0) {
      this.#known = undefined;
      return { offloaded: [], warnings: [] };
    }
    const policy = input.policy ?? NO_RUNS;
    const inputItems = input.inputItems;
    const known = this.#known;

    // Per text: last build's verdict and position where they still hold (undefined and NaN to find).
    const verdicts = new Array<Verdict | undefined>(count).fill(undefined);
    const positions = new Array<number>(count).fill(Number.NaN);
    // Whether a text was last build's too (only new texts can belong to items before `shared` not yet placed).
    const wasKnown = new Uint8Array(count);
    // Where each of last build's texts is in this build's list (-1: gone); undefined: the same list.
    let moves: Int32Array | undefined;
    let shared = 0;
    if (known !== undefined) {
      // Input items keep their positions up to where the list stops being last build's.
      shared = sharedPrefixLength(inputItems, known.inputItems);
      let sameTexts = count === known.texts.length;
      for (let index = 0; sameTexts && index < count; index++) sameTexts = sameText(texts[index]!, known.texts[index]!);
      const changed = changedIds(known.log, input.log, sameForOffloading);
      for (const id of changedIds(known.policy, policy, sameForOffloading)) changed.add(id);
      // The turn after a turn like it: the same texts, the same histories, the same places.
      if (sameTexts && changed.size === 0 && placesStand(known, inputItems, shared)) {
        const { answer, offloaded, warnings } = known.answer === undefined ? answerOf(known.order, known.verdicts, texts, input.namedInRequest) : reuse(known.answer, texts);
        this.#known = { ...known, texts, inputItems, log: input.log, policy, answer };
        return { offloaded, warnings };
      }
      if (!sameTexts) moves = align(known.texts, texts);
      for (let was = 0; was < known.texts.length; was++) {
        const index = moves === undefined ? was : moves[was]!;
        if (index < 0) continue;
        wasKnown[index] = 1;
        if (changed.size === 0 || !changed.has(texts[index]!.itemId)) verdicts[index] = known.verdicts[was];
        if (known.positions[was]! < shared) positions[index] = known.positions[was]!;
      }
    }
    const unjudged: number[] = [];
    const unplaced: number[] = [];
    for (let index = 0; index < count; index++) {
      if (verdicts[index] === undefined) unjudged.push(index);
      if (Number.isNaN(positions[index]!)) unplaced.push(index);
    }

    findPositions(positions, unplaced, texts, wasKnown, inputItems, shared);
    // Texts of items past the first change (of no input item, often) mostly stay where they were.
    const sameOrder = known !== undefined && moves === undefined && unplaced.every((index) => positions[index] === known.positions[index]);
    const order = sameOrder ? known!.order : inputOrder(known, moves, positions, unplaced, inputItems.length);
    judge(verdicts, unjudged, texts, input.log, policy);

    const { answer, offloaded, warnings } =
      sameOrder && unjudged.length === 0 && known!.answer !== undefined ? reuse(known!.answer, texts) : answerOf(order, verdicts as Verdict[], texts, input.namedInRequest);
    this.#known = { texts, verdicts: verdicts as Verdict[], positions, order, inputItems, log: input.log, policy, answer };
    return { offloaded, warnings };
  }
}

type Worked = OffloadedAnswer & { readonly answer: Known["answer"] };

/** The answer from each text's verdict, in input order; kept as indexes when no verdict asked the request. */
function answerOf(order: ReadonlyArray<number>, verdicts: ReadonlyArray<Verdict>, texts: ReadonlyArray<OffloadedText>, namedInRequest: (handle: string) => boolean): Worked {
  const kept: number[] = [];
  const warnings: string[] = [];
  let asksRequest = false;
  for (const index of order) {
    const verdict = verdicts[index]!;
    const { outcome } = verdict;
    if (outcome.kind === "kept") kept.push(index);
    else if (outcome.kind === "if-named") {
      asksRequest = true;
      if (namedInRequest(texts[index]!.handle)) kept.push(index);
    } else if (outcome.kind === "warned") {
      verdict.warning ??= withheldWarning(texts[index]!, outcome.event);
      warnings.push(verdict.warning);
    }
  }
  return { answer: asksRequest ? undefined : { kept, warnings: warnings.slice() }, offloaded: kept.map((index) => texts[index]!), warnings };
}

/** Last build's answer over this build's text objects. */
function reuse(answer: NonNullable<Known["answer"]>, texts: ReadonlyArray<OffloadedText>): Worked {
  return { answer, offloaded: answer.kept.map((index) => texts[index]!), warnings: answer.warnings.slice() };
}

/**
 * Whether every text's input position still holds: the texts of items past `shared` (last in the
 * order) are only texts of no input item, and none of the input items past `shared` is theirs.
 */
function placesStand(known: Known, inputItems: ReadonlyArray<Item>, shared: number): boolean {
  const { order, positions, texts } = known;
  const elsewhere = new Set<string>();
  for (let at = order.length - 1; at >= 0 && positions[order[at]!]! >= shared; at--) {
    if (positions[order[at]!] !== Number.POSITIVE_INFINITY) return false;
    elsewhere.add(texts[order[at]!]!.itemId);
  }
  if (elsewhere.size === 0) return true;
  for (let position = shared; position < inputItems.length; position++) if (elsewhere.has(inputItems[position]!.id)) return false;
  return true;
}

/** The same text for an outcome and a place in the order: the same handle of the same item. */
function sameText(text: OffloadedText, known: OffloadedText): boolean {
  return text === known || (text.handle === known.handle && text.itemId === known.itemId);
}

/**
 * For each text of `before`, its index in `after` when an in-order matching pairs it with the same
 * text there, else -1: a few texts added (a new result cut) or gone are passed over; what no match is
 * found for nearby is taken as replaced.
 */
function align(before: ReadonlyArray<OffloadedText>, after: ReadonlyArray<OffloadedText>): Int32Array {
  const moves = new Int32Array(before.length).fill(-1);
  let was = 0;
  let at = 0;
  while (was < before.length && at < after.length) {
    if (sameText(after[at]!, before[was]!)) {
      moves[was++] = at++;
      continue;
    }
    let skip = 0;
    for (let distance = 1; distance <= LOOKAHEAD && skip === 0; distance++) {
      if (at + distance < after.length && sameText(after[at + distance]!, before[was]!)) skip = distance;
      else if (was + distance < before.length && sameText(after[at]!, before[was + distance]!)) skip = -distance;
    }
    if (skip > 0) at += skip;
    else if (skip < 0) was -= skip;
    else {
      was++;
      at++;
    }
  }
  return moves;
}

/**
 * Fills the positions of `unplaced` (NaN), by the input items after `shared` and, for texts that are
 * new, before it. Input ids are unique, so an item before `shared` is where it was (and nowhere
 * else), and one a known text had past it (or nowhere) is now past it or nowhere.
 */
function findPositions(
  positions: number[],
  unplaced: ReadonlyArray<number>,
  texts: ReadonlyArray<OffloadedText>,
  wasKnown: Uint8Array,
  inputItems: ReadonlyArray<Item>,
  shared: number,
): void {
  if (unplaced.length === 0) return;
  const byItem = new Map<string, number[]>();
  let newText = false;
  for (const index of unplaced) {
    const id = texts[index]!.itemId;
    const indexes = byItem.get(id);
    if (indexes === undefined) byItem.set(id, [index]);
    else indexes.push(index);
    if (wasKnown[index] === 0) newText = true;
  }
  // Newest first: a new text is mostly of a recent item (a result cut or cleared this turn).
  const scan = (from: number, to: number) => {
    for (let position = to - 1; position >= from && byItem.size > 0; position--) {
      const id = inputItems[position]!.id;
      const indexes = byItem.get(id);
      if (indexes === undefined) continue;
      for (const index of indexes) positions[index] = position;
      byItem.delete(id);
    }
  };
  scan(shared, inputItems.length);
  if (newText) scan(0, shared);
  for (const index of unplaced) if (Number.isNaN(positions[index]!)) positions[index] = Number.POSITIVE_INFINITY;
}

/**
 * Text indexes by the input position of their item, texts of one item (and of no input item) in the
 * order recorded: last build's order for the texts whose positions stand (renumbered, it is still in
 * order), with the others sorted and merged in.
 */
function inputOrder(known: Known | undefined, moves: Int32Array | undefined, positions: ReadonlyArray<number>, unplaced: ReadonlyArray<number>, inputLength: number): number[] {
  // Texts of no input item go after every input position, in the order recorded.
  const place = (index: number) => Math.min(positions[index]!, inputLength);
  const before = (left: number, right: number) => place(left) - place(right) || left - right;
  const placedAgain = new Uint8Array(positions.length);
  for (const index of unplaced) placedAgain[index] = 1;
  const knownOrder = known?.order ?? [];
  const order: number[] = [];
  const fresh = [...unplaced].sort(before);
  let next = 0;
  for (let at = 0; at < knownOrder.length; at++) {
    const was = knownOrder[at]!;
    const index = moves === undefined ? was : moves[was]!;
    if (index < 0 || placedAgain[index] === 1) continue;
    while (next < fresh.length && before(fresh[next]!, index) < 0) order.push(fresh[next++]!);
    order.push(index);
  }
  while (next < fresh.length) order.push(fresh[next++]!);
  return order;
}

/** Works out the verdicts of `unjudged`, reading the histories of their items only. */
function judge(verdicts: Array<Verdict | undefined>, unjudged: ReadonlyArray<number>, texts: ReadonlyArray<OffloadedText>, log: LogSnapshot, policy: LogSnapshot): void {
  if (unjudged.length === 0) return;
  const wanted = new Set<string>();
  for (const index of unjudged) wanted.add(texts[index]!.itemId);
  const events = eventsIn(log, wanted);
  const policyEvents = eventsIn(policy, wanted);
  for (const index of unjudged) {
    const id = texts[index]!.itemId;
    const outcome = offloadOutcome(events.get(id) ?? NONE, policyEvents.get(id));
    verdicts[index] = outcome.kind === "kept" ? KEPT : outcome.kind === "silent" ? SILENT : outcome.kind === "if-named" ? IF_NAMED : { outcome };
  }
}
