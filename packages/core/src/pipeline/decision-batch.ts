// Decisions a plugin makes again on every build (the same results cleared, each for its own reason),
// recorded by reference: the pipeline turns a batch into report events once and, given the same batch
// object on the next build, records those events again without looking at each decision. A compression
// chain that clears thousands of old results records them in the time of a copy.
import { type BuildContextInternals, maybeInternalsOf } from "./build-context.js";
import type { Decision } from "./build-report.js";
import type { StageContext } from "./stage-context.js";

export interface DecisionBatchEntry {
  readonly id: string;
  readonly reason: string;
  /** The text kept whole (report.offload) under its handle, which must be contentHandle(text). */
  readonly offload?: { readonly handle: string; readonly text: string };
}

export interface DecisionBatch {
  /** One of the decisions that keep the item in the request in another form, or leave it out. */
  readonly decision: Extract<Decision, "cleared" | "dropped" | "repaired">;
  /** In the order the decisions were made; never changed once recorded (a new batch for other decisions). */
  readonly entries: ReadonlyArray<DecisionBatchEntry>;
}

/**
 * The method under which a recorder that holds decisions before they reach the build (a compression
 * chain's, for its strategies) takes a whole batch: `recorder[RECORD_DECISION_BATCH](batch)`.
 */
export const RECORD_DECISION_BATCH: unique symbol = Symbol.for("ctxpipe.recordDecisionBatch") as never;

/**
 * Records every decision of the batch under `plugin` (as `context.report.as(plugin)` would, entry by
 * entry: the offload first, then the decision). On a context the pipeline did not make, it hands the
 * batch to that recorder when it takes batches (RECORD_DECISION_BATCH), else records entry by entry.
 */
export function recordDecisionBatch(context: StageContext, plugin: string, batch: DecisionBatch): void {
  recordThrough(context, plugin, RECORD_DECISION_BATCH, batch, (internals) => internals.recordBatch(plugin, batch), (recorder) => {
    const record = recordOf(recorder, batch.decision);
    for (const entry of batch.entries) {
      if (entry.offload !== undefined) recorder.offload(entry.id, entry.offload.text);
      record(entry.id, entry.reason);
    }
  });
}

type Recorder = ReturnType<StageContext["report"]["as"]>;

/** The pipeline's own record when the context is the pipeline's; else the recorder's bulk method under `key` when it has one; else one by one. */
function recordThrough<Value>(context: StageContext, plugin: string, key: symbol, value: Value, inPipeline: (internals: BuildContextInternals) => void, oneByOne: (recorder: Recorder) => void): void {
  const internals = maybeInternalsOf(context);
  if (internals !== undefined) {
    inPipeline(internals);
    return;
  }
  const recorder = context.report.as(plugin);
  const bulk = (recorder as unknown as Record<symbol, unknown>)[key];
  if (typeof bulk === "function") bulk(value);
  else oneByOne(recorder);
}

function recordOf(recorder: Recorder, decision: DecisionBatch["decision"]): (id: string, reason: string) => void {
  return decision === "cleared" ? recorder.clear : decision === "dropped" ? recorder.drop : recorder.repair;
}

/**
 * One decision about many items, for one reason: a sliding window that drops the oldest thousands of
 * items records them as one run (one report event shared by every id), not a decision each.
 */
export interface DecisionRun {
  readonly decision: Extract<Decision, "cleared" | "dropped" | "repaired">;
  /** The items' ids, in the order decided. The array is kept as given: never change it afterwards. */
  readonly ids: ReadonlyArray<string>;
  readonly reason: string;
}

/** The method under which a recorder that holds decisions (a compression chain's) takes a run: `recorder[RECORD_DECISION_RUN](run)`. */
export const RECORD_DECISION_RUN: unique symbol = Symbol.for("ctxpipe.recordDecisionRun") as never;

/**
 * Records the run's decision for each of its ids under `plugin`, as `context.report.as(plugin)` would
 * id by id. On a context the pipeline did not make, it hands the run to that recorder when it takes
 * runs (RECORD_DECISION_RUN), else records id by id.
 */
export function recordDecisionRun(context: StageContext, plugin: string, run: DecisionRun): void {
  checkRun(run);
  recordThrough(context, plugin, RECORD_DECISION_RUN, run, (internals) => internals.recordRun(plugin, run), (recorder) => {
    const record = recordOf(recorder, run.decision);
    for (const id of run.ids) record(id, run.reason);
  });
}

// An id array checked once: a window hands the same array build after build.
const checkedIds = new WeakSet<ReadonlyArray<string>>();

/** A run that is not { decision, ids, reason } fails where it is recorded, naming the field (the tap's error names the plugin). */
function checkRun(run: DecisionRun): void {
  const given = run as Partial<DecisionRun> | null;
  const problem =
    typeof given !== "object" || given === null
      ? "needs a run { decision, ids, reason }"
      : given.decision !== "cleared" && given.decision !== "dropped" && given.decision !== "repaired"
        ? `decision: ${JSON.stringify(given.decision)} is not "cleared", "dropped" or "repaired"`
        : typeof given.reason !== "string"
          ? "reason: needs a string"
          : !Array.isArray(given.ids)
            ? "ids: needs an array of item ids"
            : idsProblem(given.ids);
  if (problem !== undefined) throw new TypeError(`recordDecisionRun(): ${problem}`);
}

function idsProblem(ids: ReadonlyArray<unknown>): string | undefined {
  if (checkedIds.has(ids as ReadonlyArray<string>)) return undefined;
  for (let index = 0; index < ids.length; index++) {
    const id = ids[index];
    if (typeof id !== "string" || id.length === 0) return `ids[${index}]: needs an item id (a non-empty string), got ${typeof id === "string" ? "an empty string" : typeof id}`;
  }
  checkedIds.add(ids as ReadonlyArray<string>);
  return undefined;
}
