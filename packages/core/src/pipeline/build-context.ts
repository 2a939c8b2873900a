// The one context object of a build. Taps see it through the StageContext / ValidateContext
// interfaces; the pipeline reaches its internals (events, issues, the current tap) through
// `internalsOf`, which plugins cannot import.
import type { ValidationIssue } from "../errors/context-validation-error.js";
import type { Item } from "../model/item.js";
import { itemText } from "../model/item-text.js";
import type { TurnGroups } from "../model/turn-groups.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import type { ToolDefinition } from "../spec/tool-definition.js";
import { itemContentHandle } from "../text/item-content-handle.js";
import type { TextCut } from "../text/text-cut.js";
import type { BuildOptions } from "./build-options.js";
import type { Decision, OffloadedText, ReportEvent } from "./build-report.js";
import type { DecisionBatch, DecisionRun } from "./decision-batch.js";
import { EventLog, type EventRun } from "./event-log.js";
import { OffloadedTexts } from "./offloaded-texts.js";
import type { StageLabel } from "./stage.js";
import type {
  Budget,
  DecisionRecorder,
  SystemPart,
  SystemPromptParts,
  ValidateContext,
  ValidationIssueInput,
} from "./stage-context.js";

// Token counts survive across builds: items are immutable and the same validated item object comes
// back for the same input object, so a rebuild only counts what is new.
const tokenCache = new WeakMap<Tokenizer, WeakMap<Item, number>>();

export function countItemTokens(tokenizer: Tokenizer, item: Item): number {
  let perItem = tokenCache.get(tokenizer);
  if (perItem === undefined) {
    perItem = new WeakMap();
    tokenCache.set(tokenizer, perItem);
  }
  let count = perItem.get(item);
  if (count === undefined) {
    count = tokenizer.count(itemText(item));
    perItem.set(item, count);
  }
  return count;
}

export interface BuildContextInit {
  readonly options: Readonly<BuildOptions>;
  readonly renderer: string;
  readonly tokenizer: Tokenizer;
  readonly budget: Budget | undefined;
  readonly tools: ReadonlyArray<ToolDefinition>;
  readonly inputItems: ReadonlyArray<Item>;
  readonly turns: TurnGroups;
}

/**
 * Which run of the stages a context is for: the build's own, or the policy view's run over the input
 * (pipeline.ts). Plugins that keep last build's work keep one per lane, so the two runs of one build
 * do not throw away each other's.
 */
export type Lane = "build" | "policy-view";

/** The lane of a context (a context the pipeline did not make runs in the build's). */
export function laneOf(context: object): Lane {
  return internals.get(context)?.lane ?? "build";
}

export interface BuildContextInternals {
  lane: Lane;
  stage: StageLabel;
  plugin: string;
  /** Every decision of the build, in order. */
  readonly log: EventLog;
  /** Where the running tap's decisions start in the log. */
  tapStart: number;
  /** Ids the running tap recorded a decision for, so implicit attribution does not repeat it. */
  touched(): ReadonlySet<string>;
  readonly issues: ValidationIssue[];
  /** Which list validate taps are looking at. */
  phase: "items" | "request";
  /** Issues that sent the build back to repair-orphans. */
  violations: ReadonlyArray<ValidationIssue>;
  readonly warnings: string[];
  /** Every part added to the system prompt, in the order added. */
  readonly systemParts: SystemPart[];
  /** Plugins' own report fields (report.attach). */
  readonly attachments: Map<string, unknown>;
  /** Texts kept outside the request (report.truncate, report.offload), each handle once, in the order recorded. */
  readonly offloaded: ReadonlyMap<string, OffloadedText>;
  enterTap(plugin: string): void;
  record(id: string, decision: Decision, reason: string, relatedId?: string, plugin?: string, cut?: TextCut): void;
  /** One decision about many items, recorded as one run. */
  recordAll(ids: ReadonlyArray<string>, decision: Decision, reason: string): void;
  /** A batch's decisions (decision-batch.ts), its events made once per batch object. */
  recordBatch(plugin: string, batch: DecisionBatch): void;
  /** A run's decision (decision-batch.ts) for all its ids, recorded as one run of the log. */
  recordRun(plugin: string, run: DecisionRun): void;
  /** Whether any text was offloaded. */
  hasOffloaded(): boolean;
}

const internals = new WeakMap<object, BuildContextInternals>();

// The report's own fields, which an attachment must not shadow.
const RESERVED_REPORT_FIELDS: ReadonlySet<string> = new Set([
  "entries",
  "synthesized",
  "allEntries",
  "systemParts",
  "renderer",
  "tokenizer",
  "budget",
  "warnings",
  "violations",
  "repairedViolations",
  "cache",
  "offloaded",
]);

export function internalsOf(context: object): BuildContextInternals {
  const found = internals.get(context);
  if (found === undefined) throw new TypeError("not a ctxpipe build context");
  return found;
}

/** The internals of a context the pipeline made, or undefined for a context a plugin made up itself. */
export function maybeInternalsOf(context: object): BuildContextInternals | undefined {
  return internals.get(context);
}

function idOf(item: Item | string): string {
  return typeof item === "string" ? item : item.id;
}

// A cut names the original it came from; hashing a multi-MB original again to check the handle
// would cost more than the cut, so only the shape is checked.
function checkCut(cut: TextCut, original: string): void {
  if (typeof cut !== "object" || cut === null || typeof cut.handle !== "string") throw new TypeError("report.truncate() needs the cut cutMiddle returned");
  if (typeof original !== "string" || !(cut.from >= 0 && cut.from < cut.to && cut.to <= original.length)) {
    throw new TypeError(`report.truncate(): the cut ${cut.from}..${cut.to} is not a range of the original text given (${typeof original === "string" ? original.length : "no"} characters)`);
  }
}

// A batch's events and offloaded texts, made on first use and recorded again by reference.
interface BatchEvents {
  readonly stage: StageLabel;
  readonly plugin: string;
  readonly runs: ReadonlyArray<EventRun>;
  readonly offloads: ReadonlyArray<OffloadedText>;
}
const batchEvents = new WeakMap<DecisionBatch, BatchEvents>();

function eventsOf(batch: DecisionBatch, stage: StageLabel, plugin: string): BatchEvents {
  const known = batchEvents.get(batch);
  if (known !== undefined && known.stage === stage && known.plugin === plugin) return known;
  const runs: EventRun[] = [];
  const offloads: OffloadedText[] = [];
  for (const entry of batch.entries) {
    if (entry.offload !== undefined) offloads.push({ handle: entry.offload.handle, itemId: entry.id, text: entry.offload.text, chars: entry.offload.text.length });
    runs.push({ ids: [entry.id], event: { decision: batch.decision, stage, plugin, reason: entry.reason } });
  }
  const events = { stage, plugin, runs, offloads };
  batchEvents.set(batch, events);
  return events;
}

export function createBuildContext(init: BuildContextInit): ValidateContext {
  const log = new EventLog();
  const offloaded = new OffloadedTexts();
  // The running tap's ids, extended as it records more.
  let touched = new Set<string>();
  let touchedUpTo = 0;
  // Consecutive decisions alike (a stage dropping many items for one reason) share one event object.
  let lastEvent: ReportEvent | undefined;
  const eventFor = (decision: Decision, reason: string, relatedId: string | undefined, plugin: string, cut?: TextCut): ReportEvent => {
    const last = lastEvent;
    if (cut === undefined && last !== undefined && last.cut === undefined && last.decision === decision && last.reason === reason && last.plugin === plugin && last.stage === state.stage && last.relatedId === relatedId) {
      return last;
    }
    lastEvent = {
      decision,
      stage: state.stage,
      plugin,
      reason,
      ...(relatedId === undefined ? {} : { relatedId }),
      ...(cut === undefined ? {} : { cut: { handle: cut.handle, from: cut.from, to: cut.to, chars: cut.chars, tokens: cut.tokens } }),
    };
    return lastEvent;
  };
  const checkStage = () => {
    if (state.stage === "validate") throw new Error("validate taps report problems with context.issue(); they cannot change the items");
  };
  const state: BuildContextInternals = {
    lane: "build",
    stage: "compress",
    plugin: "ctxpipe",
    log,
    tapStart: 0,
    issues: [],
    phase: "items",
    violations: [],
    warnings: [],
    systemParts: [],
    attachments: new Map(),
    offloaded,
    enterTap(plugin) {
      state.plugin = plugin;
      state.tapStart = log.length;
      touched = new Set();
      touchedUpTo = log.length;
    },
    touched() {
      for (const run of log.runsFrom(touchedUpTo)) for (const id of run.ids) touched.add(id);
      touchedUpTo = log.length;
      return touched;
    },
    record(id, decision, reason, relatedId, plugin = state.plugin, cut) {
      checkStage();
      log.add([id], eventFor(decision, reason, relatedId, plugin, cut));
    },
    recordAll(ids, decision, reason) {
      checkStage();
      if (ids.length > 0) log.add(ids, eventFor(decision, reason, undefined, state.plugin));
    },
    recordBatch(plugin, batch) {
      checkStage();
      const events = eventsOf(batch, state.stage, plugin);
      log.addAll(events.runs);
      offloaded.addBatch(events.offloads);
      lastEvent = undefined;
    },
    recordRun(plugin, run) {
      checkStage();
      if (run.ids.length > 0) log.add(run.ids, eventFor(run.decision, run.reason, undefined, plugin));
    },
    hasOffloaded() {
      return offloaded.any;
    },
  };

  const parts = state.systemParts;
  const system: SystemPromptParts = {
    add(part) {
      const order = part.order ?? 0;
      if (typeof part.text !== "string") throw new TypeError("a system part needs text");
      if (!Number.isFinite(order)) throw new TypeError("a system part's order must be a finite number");
      parts.push({ id: part.id ?? `system-${parts.length}`, text: part.text, order, addedBy: state.plugin });
    },
    list() {
      // Sort is stable: equal orders keep the order they were added in.
      return [...parts].sort((left, right) => left.order - right.order);
    },
  };

  const recorderFor = (plugin: string | undefined): Omit<DecisionRecorder, "attach" | "as"> => ({
    drop: (item, reason) => state.record(idOf(item), "dropped", reason, undefined, plugin),
    repair: (item, reason) => state.record(idOf(item), "repaired", reason, undefined, plugin),
    synthesize: (item, reason) => state.record(idOf(item), "synthesized", reason, undefined, plugin),
    merge: (item, intoId, reason) => state.record(idOf(item), "merged", reason, intoId, plugin),
    summarize: (item, summaryId, reason) => state.record(idOf(item), "summarized", reason, summaryId, plugin),
    clear: (item, reason) => state.record(idOf(item), "cleared", reason, undefined, plugin),
    truncate: (item, reason, cut, original) => {
      checkCut(cut, original);
      state.record(idOf(item), "truncated", reason, undefined, plugin, cut);
      offload(idOf(item), cut.handle, original);
    },
    offload: (item, text) => {
      checkStage();
      if (typeof text !== "string") throw new TypeError("report.offload() needs the text to keep");
      const handle = itemContentHandle(item, text);
      offload(idOf(item), handle, text);
      return handle;
    },
  });
  const offload = (itemId: string, handle: string, text: string) => {
    if (!offloaded.has(handle)) offloaded.add({ handle, itemId, text, chars: text.length });
  };
  // A chain replays its parts' decisions through as(): one recorder per name, not one per decision.
  const recorders = new Map<string, Omit<DecisionRecorder, "attach" | "as">>();
  const report: DecisionRecorder = {
    ...recorderFor(undefined),
    as(plugin) {
      if (typeof plugin !== "string" || plugin.length === 0) throw new TypeError("report.as() needs a plugin name");
      let recorder = recorders.get(plugin);
      if (recorder === undefined) {
        recorder = recorderFor(plugin);
        recorders.set(plugin, recorder);
      }
      return recorder;
    },
    attach(key, value) {
      // Typed by ReportAttachments for callers; checked here for plain JavaScript ones.
      const name: unknown = key;
      if (typeof name !== "string" || name.length === 0) throw new TypeError("report.attach() needs a field name");
      if (RESERVED_REPORT_FIELDS.has(name)) throw new TypeError(`report.attach(): "${name}" is one of the report's own fields`);
      state.attachments.set(name, value);
    },
  };

  const context: ValidateContext = {
    get stage() {
      return state.stage;
    },
    options: init.options,
    renderer: init.renderer,
    model: init.options.model,
    tokenizer: init.tokenizer,
    budget: init.budget,
    tools: init.tools,
    inputItems: init.inputItems,
    turns: init.turns,
    system,
    report,
    countTokens: (item) => countItemTokens(init.tokenizer, item),
    warn(message) {
      state.warnings.push(`[${state.plugin}] ${message}`);
    },
    get violations() {
      return state.violations;
    },
    issue(issue: ValidationIssueInput) {
      const itemId = issue.item?.id ?? issue.itemId;
      const recorded: ValidationIssue = {
        rule: String(issue.rule),
        level: issue.level === "strict" ? "strict" : "error",
        message: String(issue.message),
        phase: state.phase,
        plugin: state.plugin,
        ...(itemId === undefined ? {} : { itemId }),
        ...(issue.position === undefined ? {} : { position: issue.position }),
        ...(issue.path === undefined ? {} : { path: issue.path }),
        ...(issue.messageIndex === undefined ? {} : { messageIndex: issue.messageIndex }),
        ...(issue.providerError === undefined ? {} : { providerError: issue.providerError }),
      };
      state.issues.push(recorded);
    },
  };
  internals.set(context, state);
  return context;
}
