// Repairs an agent loop's list without walking its whole history every build. The list is cut where a
// user message opens a turn; the repairs of everything before the last cut are kept from the builds
// before, and only the newest turn and what was appended are repaired again.
//
// Why the cut is safe: every pass but the first and last either looks at one item (sanitize) or keeps
// state that a user message resets (copies, parallel calls, the run of results after a call), except
// for what ties calls to results and call ids to each other. So two parts of a list repair
// independently when no call id or result's call id of the later part appears in the earlier one
// (input or repaired), and the explanations they give are looked up in the whole list. When a part
// is not independent of the part before it, the two are repaired together; when the kept part no
// longer starts the list (the budget moved the window), everything is repaired again.
import type { Item, ItemOf } from "../../model/item.js";
import type { Items } from "../../pipeline/pipeline-hooks.js";
import { startsWith } from "../../pipeline/input-preparer.js";
import { notePrefix, sharedPrefixLength } from "../../pipeline/list-lineage.js";
import type { DecisionRecorder, StageContext } from "../../pipeline/stage-context.js";
import { contentHandle } from "../../text/content-handle.js";
import type { TextCut } from "../../text/text-cut.js";
import type { PairScope } from "./pair-results.js";
import { summaryCoverage } from "./summary-coverage.js";

type ToolResult = ItemOf<"tool-result">;
type Method = "drop" | "repair" | "synthesize" | "clear";

/** A decision a pass made, kept to be recorded again in the builds that reuse its part. */
type Recorded =
  | { readonly method: Method; readonly id: string; readonly reason: string; readonly plugin: string | undefined }
  | { readonly method: "merge" | "summarize"; readonly id: string; readonly reason: string; readonly relatedId: string; readonly plugin: string | undefined }
  | { readonly method: "truncate"; readonly id: string; readonly reason: string; readonly cut: TextCut; readonly original: string; readonly plugin: string | undefined }
  | { readonly method: "offload"; readonly id: string; readonly text: string; readonly plugin: string | undefined };

export interface PartScope {
  /** Call ids of the parts before this one, which its rewritten ids must not take. */
  readonly reserved: ReadonlySet<string>;
  readonly pair: PairScope;
}

/** Every pass but the edges, over one part of the list. */
export type RepairPart = (part: Items, context: StageContext, scope: PartScope) => Items;

/** What repairing one part gave. */
interface Part {
  readonly output: ReadonlyArray<Item>;
  readonly events: ReadonlyArray<Recorded>;
  /** Call ids and results' call ids of the part, before and after repair. */
  readonly ids: ReadonlySet<string>;
  /** Whether an explanation looked at summaries, which a later summary could change. */
  readonly usedCoverage: boolean;
}

/**
 * The repaired part kept from earlier builds: the first `inputLength` items of the list `input`, and
 * what repairing them gave, the first `outputLength` items of `output`. Lists the pipeline hands a
 * stage are not changed once made, so they are kept without a copy; `unchanged` says the repairs
 * changed nothing, and then `output` is `input`.
 */
interface Kept extends Part {
  readonly inputItems: Items;
  readonly input: Items;
  readonly inputLength: number;
  readonly outputLength: number;
  readonly unchanged: boolean;
  readonly ids: Set<string>;
}

function emptyKept(inputItems: Items): Kept {
  return { inputItems, input: [], inputLength: 0, output: [], outputLength: 0, unchanged: true, events: [], ids: new Set(), usedCoverage: false };
}

/** Whether `output` holds the same objects as `input`'s items from `from` on, as many. */
function sameAs(output: Items, input: Items, from: number, length: number): boolean {
  if (output.length !== length) return false;
  for (let index = 0; index < length; index++) if (output[index] !== input[from + index]) return false;
  return true;
}

// The empty id ties nothing across parts: calls and results without an id pair by position, never past
// a user message (pair-empty-call-ids.ts), and a part starts at one. So it is left out of the ids.
function callIdsOf(item: Item, into: (id: string) => void): void {
  if (item.type === "assistant") {
    for (const call of item.toolCalls) if (call.id !== "") into(call.id);
  } else if (item.type === "tool-result" && item.callId !== "") into(item.callId);
}

/** Whether `part` shares no call id with `ids` and, when explanations looked at summaries, adds no summary. */
function independent(part: Items, ids: ReadonlySet<string>, usedCoverage: boolean): boolean {
  for (const item of part) {
    if (item.type === "summary" && usedCoverage) return false;
    if (item.type === "assistant") {
      for (const call of item.toolCalls) if (ids.has(call.id)) return false;
    } else if (item.type === "tool-result" && ids.has(item.callId)) return false;
  }
  return true;
}

/** A context whose decisions are held back, to be recorded once the parts are known to be independent. */
function bufferingContext(context: StageContext, events: Recorded[]): StageContext {
  const recorder = (plugin: string | undefined): Omit<DecisionRecorder, "attach" | "as"> => {
    const simple = (method: Method) => (item: Item | string, reason: string) => {
      events.push({ method, id: typeof item === "string" ? item : item.id, reason, plugin });
    };
    const related = (method: "merge" | "summarize") => (item: Item | string, relatedId: string, reason: string) => {
      events.push({ method, id: typeof item === "string" ? item : item.id, reason, relatedId, plugin });
    };
    const idOf = (item: Item | string) => (typeof item === "string" ? item : item.id);
    return {
      drop: simple("drop"),
      repair: simple("repair"),
      synthesize: simple("synthesize"),
      clear: simple("clear"),
      merge: related("merge"),
      summarize: related("summarize"),
      truncate: (item, reason, cut, original) => {
        events.push({ method: "truncate", id: idOf(item), reason, cut, original, plugin });
      },
      offload: (item, text) => {
        events.push({ method: "offload", id: idOf(item), text, plugin });
        return contentHandle(text);
      },
    };
  };
  const report: DecisionRecorder = { ...recorder(undefined), as: (plugin) => recorder(plugin), attach: (key, value) => context.report.attach(key, value) };
  return Object.create(context, { report: { value: report } }) as StageContext;
}

function replay(context: StageContext, events: ReadonlyArray<Recorded>): void {
  for (const event of events) {
    const report = event.plugin === undefined ? context.report : context.report.as(event.plugin);
    if (event.method === "merge" || event.method === "summarize") report[event.method](event.id, event.relatedId, event.reason);
    else if (event.method === "truncate") report.truncate(event.id, event.reason, event.cut, event.original);
    else if (event.method === "offload") report.offload(event.id, event.text);
    else report[event.method](event.id, event.reason);
  }
}

/** Stored tool results by call id, kept while the input only grows. */
class ResultIndex {
  #inputItems: Items = [];
  #length = 0;
  #byCall = new Map<string, ToolResult[]>();

  of(inputItems: Items): ReadonlyMap<string, ReadonlyArray<ToolResult>> {
    // Asked once per unanswered call of a build: the same list again costs nothing.
    if (inputItems === this.#inputItems && inputItems.length === this.#length) return this.#byCall;
    const from = this.#length <= inputItems.length && sharedPrefixLength(inputItems, this.#inputItems) >= this.#length ? this.#length : 0;
    if (from === 0) this.#byCall = new Map();
    for (let index = from; index < inputItems.length; index++) {
      const item = inputItems[index]!;
      if (item.type !== "tool-result") continue;
      const list = this.#byCall.get(item.callId);
      if (list === undefined) this.#byCall.set(item.callId, [item]);
      else list.push(item);
    }
    this.#inputItems = inputItems;
    this.#length = inputItems.length;
    return this.#byCall;
  }
}

/**
 * The kept part's repaired items followed by `parts`, in one array of the final length: slicing the
 * kept part first, then concatenating, made two copies of the history on every build that repaired
 * something (a call still waiting for its result).
 */
function keptOutputThen(kept: Kept, parts: ReadonlyArray<Items>): Item[] {
  let length = kept.outputLength;
  for (const part of parts) length += part.length;
  const output = new Array<Item>(length);
  let at = 0;
  for (; at < kept.outputLength; at++) output[at] = kept.output[at]!;
  for (const part of parts) for (let index = 0; index < part.length; index++) output[at++] = part[index]!;
  return output;
}

export class RepairMemo {
  #kept: Kept | undefined;
  readonly #results = new ResultIndex();

  /** Forgets the kept part: the next build repairs everything. */
  forget(): void {
    this.#kept = undefined;
  }

  /**
   * The list after every pass but the edges, the same array when nothing changed. `keeps(item)` says whether the
   * first pass keeps the item: a part starts at a user message it keeps, and a summary it drops
   * explains nothing.
   */
  repair(list: Items, context: StageContext, repairPart: RepairPart, keeps: (item: Item) => boolean): Items {
    const opensPart = (item: Item) => item.type === "user" && keeps(item);
    const kept = this.#usable(list, context, opensPart) ?? emptyKept(context.inputItems);
    const rest = list.slice(kept.inputLength);

    let coverage: Map<string, string> | undefined;
    let usedCoverage = false;
    const pair: PairScope = {
      coverage: () => {
        usedCoverage = true;
        coverage ??= summaryCoverage(
          list.filter((item) => item.type !== "summary" || keeps(item)),
          context.inputItems,
        );
        return coverage;
      },
      storedResult: (callId, isPresent) => {
        const stored = this.#results.of(context.inputItems).get(callId);
        if (stored === undefined) return undefined;
        for (let index = stored.length - 1; index >= 0; index--) if (!isPresent(stored[index]!.id)) return stored[index];
        return undefined;
      },
    };
    const run = (part: Items, reserved: ReadonlySet<string>): Part => {
      usedCoverage = false;
      const events: Recorded[] = [];
      const output = part.length === 0 ? part : repairPart(part, bufferingContext(context, events), { reserved, pair });
      const ids = new Set<string>();
      const add = (id: string) => ids.add(id);
      for (const item of part) callIdsOf(item, add);
      for (const item of output) callIdsOf(item, add);
      return { output, events, ids, usedCoverage };
    };

    // The newest turn is repaired on its own, so that the turns before it can be kept for the next build.
    let cut = rest.length;
    while (cut > 0 && !opensPart(rest[cut - 1]!)) cut--;
    cut = Math.max(0, cut - 1);
    const older = run(rest.slice(0, cut), kept.ids);
    const newest = rest.slice(cut);
    let parts: Part[];
    if (independent(newest, older.ids, older.usedCoverage)) {
      // The kept ids grow into the ids of the part kept next: no copy of a set that grows with the history.
      const reserved = kept.ids;
      for (const id of older.ids) reserved.add(id);
      parts = [older, run(newest, reserved)];
      const inputLength = kept.inputLength + cut;
      // Nothing repaired in the kept part nor in this one: the kept output is the list's first items, no copy.
      const unchanged = kept.unchanged && sameAs(older.output, list, kept.inputLength, cut);
      const output = unchanged ? list : keptOutputThen(kept, [older.output]);
      this.#kept = {
        inputItems: context.inputItems,
        input: list,
        inputLength,
        output,
        outputLength: unchanged ? inputLength : output.length,
        unchanged,
        events: kept.events.concat(older.events),
        ids: reserved,
        usedCoverage: kept.usedCoverage || older.usedCoverage,
      };
    } else {
      parts = [run(rest, kept.ids)];
      this.#kept = kept.inputLength === 0 ? undefined : kept;
    }

    replay(context, kept.events);
    for (const part of parts) replay(context, part.events);
    // The list itself when no part changed anything (the usual turn), without making the copy first.
    let at = kept.inputLength;
    let same = kept.unchanged;
    for (const part of parts) {
      same &&= sameAs(part.output, list, at, part.output.length);
      at += part.output.length;
    }
    if (same && at === list.length) return list;
    const output = keptOutputThen(kept, parts.map((part) => part.output));
    // Noted (nothing changes it from here): the tap's check hands it on without a copy.
    notePrefix(output, list, sharedPrefixLength(output, list));
    return output;
  }

  /** The kept part when the list still starts with it and nothing new could change its repairs. */
  #usable(list: Items, context: StageContext, opensPart: (item: Item) => boolean): Kept | undefined {
    const kept = this.#kept;
    if (kept === undefined || !startsWith(list, kept.input, kept.inputLength) || !startsWith(context.inputItems, kept.inputItems)) return undefined;
    if (list.length > kept.inputLength && kept.inputLength > 0 && !opensPart(list[kept.inputLength]!)) return undefined;
    const grown = context.inputItems.length > kept.inputItems.length;
    // New stored items that mention its calls, or any growth once its explanations read summaries.
    if (grown && (kept.usedCoverage || !independent(context.inputItems.slice(kept.inputItems.length), kept.ids, false))) return undefined;
    if (!independent(list.slice(kept.inputLength), kept.ids, kept.usedCoverage)) return undefined;
    return kept;
  }
}
