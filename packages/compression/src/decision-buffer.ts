// Holds a pass's decisions and warnings until the chain knows the pass is final. When a summary is
// made, the chain starts over with it applied (as every later build will apply it), and the first
// pass's decisions must not reach the report.
import { contentHandle, type DecisionRecorder, type StageContext } from "@ctxpipe/core";

type Recorder = Omit<DecisionRecorder, "attach" | "as">;
type Call = { readonly plugin: string; readonly method: keyof Recorder; readonly args: ReadonlyArray<unknown> };

export class DecisionBuffer {
  readonly #calls: Call[] = [];
  readonly #warnings: string[] = [];

  /** A recorder whose decisions name `plugin` once flushed. */
  as(plugin: string): Recorder {
    const push = (method: keyof Recorder) => (...args: unknown[]) => {
      this.#calls.push({ plugin, method, args });
    };
    return {
      drop: push("drop") as Recorder["drop"],
      repair: push("repair") as Recorder["repair"],
      synthesize: push("synthesize") as Recorder["synthesize"],
      merge: push("merge") as Recorder["merge"],
      summarize: push("summarize") as Recorder["summarize"],
      clear: push("clear") as Recorder["clear"],
      truncate: push("truncate") as Recorder["truncate"],
      // The handle is the text's own (contentHandle), so it is known before the call is replayed.
      offload: (item, text) => {
        push("offload")(item, text);
        return contentHandle(text);
      },
    };
  }

  /** The decisions held, in order: which part of the chain made which kind on which item (offloads are not decisions). */
  decisions(): ReadonlyArray<{ readonly plugin: string; readonly kind: keyof Recorder; readonly id: string }> {
    return this.#calls.filter((call) => call.method !== "offload").map((call) => {
      const item = call.args[0] as { id: string } | string;
      return { plugin: call.plugin, kind: call.method, id: typeof item === "string" ? item : item.id };
    });
  }

  /** Whether a part of the chain offloaded an original (a cleared result kept whole under its handle). */
  offloaded(): boolean {
    return this.#calls.some((call) => call.method === "offload");
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
    for (const call of this.#calls) {
      const recorder = context.report.as(call.plugin) as unknown as Record<string, (...args: unknown[]) => void>;
      recorder[call.method]!(...call.args);
    }
    for (const warning of this.#warnings) context.warn(warning);
  }
}
