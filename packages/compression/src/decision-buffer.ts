// Holds a pass's decisions and warnings until the chain knows the pass is final. When a summary is
// made, the chain starts over with it applied (as every later build will apply it), and the first
// pass's decisions must not reach the report.
import {
  type DecisionBatch,
  type DecisionRecorder,
  type DecisionRun,
  itemContentHandle,
  RECORD_DECISION_BATCH,
  RECORD_DECISION_RUN,
  recordDecisionBatch,
  recordDecisionRun,
  type StageContext,
} from "@ctxpipe/core";

type Recorder = Omit<DecisionRecorder, "attach" | "as">;
type Call =
  | { readonly plugin: string; readonly method: keyof Recorder; readonly args: ReadonlyArray<unknown> }
  | { readonly plugin: string; readonly method: "batch"; readonly batch: DecisionBatch }
  | { readonly plugin: string; readonly method: "run"; readonly run: DecisionRun };
type Held = { readonly [RECORD_DECISION_BATCH]: (batch: DecisionBatch) => void; readonly [RECORD_DECISION_RUN]: (run: DecisionRun) => void };

const KIND_OF = { cleared: "clear", dropped: "drop", repaired: "repair" } as const satisfies Record<DecisionBatch["decision"], keyof Recorder>;

export class DecisionBuffer {
  readonly #calls: Call[] = [];
  readonly #warnings: string[] = [];

  /** A recorder whose decisions name `plugin` once flushed. */
  as(plugin: string): Recorder & Held {
    const push = (method: keyof Recorder) => (...args: unknown[]) => {
      this.#calls.push({ plugin, method, args });
    };
    return {
      // Held as one call, and recorded by reference when flushed (recordDecisionBatch).
      [RECORD_DECISION_BATCH]: (batch: DecisionBatch) => {
        this.#calls.push({ plugin, method: "batch", batch });
      },
      // Held as one call, recorded as one run of the report when flushed (recordDecisionRun).
      [RECORD_DECISION_RUN]: (run: DecisionRun) => {
        this.#calls.push({ plugin, method: "run", run });
      },
      drop: push("drop") as Recorder["drop"],
      repair: push("repair") as Recorder["repair"],
      synthesize: push("synthesize") as Recorder["synthesize"],
      merge: push("merge") as Recorder["merge"],
      summarize: push("summarize") as Recorder["summarize"],
      clear: push("clear") as Recorder["clear"],
      truncate: push("truncate") as Recorder["truncate"],
      // The handle is the text's own (contentHandle), so it is known before the call is replayed.
      offload: (item: Parameters<Recorder["offload"]>[0], text: string) => {
        push("offload")(item, text);
        return itemContentHandle(item, text);
      },
    };
  }

  /** Whether a part of the chain offloaded an original (a cleared result kept whole under its handle). */
  offloaded(): boolean {
    return this.#calls.some((call) => call.method === "offload" || (call.method === "batch" && call.batch.entries.some((entry) => entry.offload !== undefined)));
  }

  /**
   * Calls `visit` once per decision call held, in order: its kind, the object it was recorded as (the
   * batch, or the run's id array; undefined for a single decision), how many ids it holds and each id
   * by index. A caller can keep what it works out per batch or run: they are recorded again, as they
   * were, build after build.
   */
  forEachGroup(visit: (kind: keyof Recorder, key: object | undefined, count: number, idAt: (index: number) => string) => void): void {
    const calls = this.#calls;
    for (let at = 0; at < calls.length; at++) {
      const call = calls[at]!;
      if (call.method === "batch") {
        const entries = call.batch.entries;
        visit(KIND_OF[call.batch.decision], call.batch, entries.length, (index) => entries[index]!.id);
      } else if (call.method === "run") {
        const ids = call.run.ids;
        visit(KIND_OF[call.run.decision], ids, ids.length, (index) => ids[index]!);
      } else if (call.method !== "offload") {
        const item = call.args[0] as { id: string } | string;
        const id = typeof item === "string" ? item : item.id;
        visit(call.method, undefined, 1, () => id);
      }
    }
  }

  /**
   * Whether `other` holds the same decisions: the same batch objects, runs of the same kind over the
   * same id array (their reasons may differ: a run's reason names the build's usage), and the same
   * arguments for the rest.
   */
  sameAs(other: DecisionBuffer): boolean {
    const mine = this.#calls;
    const theirs = other.#calls;
    if (mine.length !== theirs.length) return false;
    for (let index = 0; index < mine.length; index++) {
      const a = mine[index]!;
      const b = theirs[index]!;
      if (a.plugin !== b.plugin || a.method !== b.method) return false;
      if (a.method === "batch" || b.method === "batch") {
        if (a.method !== "batch" || b.method !== "batch" || a.batch !== b.batch) return false;
        continue;
      }
      if (a.method === "run" || b.method === "run") {
        if (a.method !== "run" || b.method !== "run" || a.run.decision !== b.run.decision || a.run.ids !== b.run.ids) return false;
        continue;
      }
      if (a.args.length !== b.args.length || a.args.some((arg, at) => arg !== b.args[at])) return false;
    }
    return true;
  }

  warn(message: string): void {
    this.#warnings.push(message);
  }

  /** A view of the build's context for one part of the chain: its decisions and warnings go here. */
  contextFor(context: StageContext, plugin: string): StageContext {
    const recorder: DecisionRecorder = {
      ...this.as(plugin),
      attach: (key, value) => context.report.attach(key, value),
      as: (name) => this.as(name),
    };
    return Object.create(context, {
      report: { value: recorder },
      warn: { value: (message: string) => this.warn(`${plugin}: ${message}`) },
    }) as StageContext;
  }

  flush(context: StageContext): void {
    const recorders = new Map<string, Record<string, (...args: unknown[]) => void>>();
    for (const call of this.#calls) {
      if (call.method === "batch") {
        recordDecisionBatch(context, call.plugin, call.batch);
        continue;
      }
      if (call.method === "run") {
        recordDecisionRun(context, call.plugin, call.run);
        continue;
      }
      let recorder = recorders.get(call.plugin);
      if (recorder === undefined) {
        recorder = context.report.as(call.plugin) as unknown as Record<string, (...args: unknown[]) => void>;
        recorders.set(call.plugin, recorder);
      }
      recorder[call.method]!(...call.args);
    }
    for (const warning of this.#warnings) context.warn(warning);
  }
}
