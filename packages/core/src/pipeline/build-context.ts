// The one context object of a build. Taps see it through the StageContext / ValidateContext
// interfaces; the pipeline reaches its internals (events, issues, the current tap) through
// `internalsOf`, which plugins cannot import.
import type { ValidationIssue } from "../errors/context-validation-error.js";
import type { Item } from "../model/item.js";
import { itemText } from "../model/item-text.js";
import type { TurnGroups } from "../model/turn-groups.js";
import type { Tokenizer } from "../spec/tokenizer.js";
import type { ToolDefinition } from "../spec/tool-definition.js";
import type { BuildOptions } from "./build-options.js";
import type { Decision, ReportEvent } from "./build-report.js";
import { EventLog } from "./event-log.js";
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

export interface BuildContextInternals {
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
  enterTap(plugin: string): void;
  record(id: string, decision: Decision, reason: string, relatedId?: string, plugin?: string): void;
  /** One decision about many items, recorded as one run. */
  recordAll(ids: ReadonlyArray<string>, decision: Decision, reason: string): void;
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

export function createBuildContext(init: BuildContextInit): ValidateContext {
  const log = new EventLog();
  // The running tap's ids, extended as it records more.
  let touched = new Set<string>();
  let touchedUpTo = 0;
  // Consecutive decisions alike (a stage dropping many items for one reason) share one event object.
  let lastEvent: ReportEvent | undefined;
  const eventFor = (decision: Decision, reason: string, relatedId: string | undefined, plugin: string): ReportEvent => {
    const last = lastEvent;
    if (last !== undefined && last.decision === decision && last.reason === reason && last.plugin === plugin && last.stage === state.stage && last.relatedId === relatedId) return last;
    lastEvent = relatedId === undefined ? { decision, stage: state.stage, plugin, reason } : { decision, stage: state.stage, plugin, reason, relatedId };
    return lastEvent;
  };
  const checkStage = () => {
    if (state.stage === "validate") throw new Error("validate taps report problems with context.issue(); they cannot change the items");
  };
  const state: BuildContextInternals = {
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
    record(id, decision, reason, relatedId, plugin = state.plugin) {
      checkStage();
      log.add([id], eventFor(decision, reason, relatedId, plugin));
    },
    recordAll(ids, decision, reason) {
      checkStage();
      if (ids.length > 0) log.add(ids, eventFor(decision, reason, undefined, state.plugin));
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
  });
  const report: DecisionRecorder = {
    ...recorderFor(undefined),
    as(plugin) {
      if (typeof plugin !== "string" || plugin.length === 0) throw new TypeError("report.as() needs a plugin name");
      return recorderFor(plugin);
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
