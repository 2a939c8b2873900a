// Default filter-stage plugin for persisted model failures: chat and run mode store a failed call as an
// assistant message so the user can say "continue", but a model that reads the raw error text imitates
// it. A failure is left out of the request (with `failures: "note"`, a short neutral note takes the place
// of each run of them); the stored message stays in the log, since this happens at build time only.
import { z } from "zod";
import { isBlank } from "../model/is-blank.js";
import type { Item, ItemOf } from "../model/item.js";
import { itemText } from "../model/item-text.js";
import { laneOf } from "../pipeline/build-context.js";
import type { Items, PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import type { StageContext } from "../pipeline/stage-context.js";
import { failureFacts } from "./failed-calls/failure-cause.js";
import { MatchingPositions } from "./matching-positions.js";
import { parsePluginOptions } from "./parse-plugin-options.js";

const PLUGIN_NAME = "FailedCallsPlugin";

/** A note's id: this, then the id of the last failure it stands for. */
const NOTE_ID_PREFIX = "ctxpipe:failed-call-note:";

const failedCallsPluginOptionsSchema = z.strictObject({
  /**
   * What is sent for failed model calls: nothing (`"omit"`, the default), or one short neutral
   * assistant note naming the cause (`"note"`), e.g. `(The previous attempt failed: overloaded.)`,
   * for each run of failures in a row with the same cause. Either way each failure is reported
   * `dropped`, and a note `synthesized` (id `ctxpipe:failed-call-note:<last failure's id>`).
   */
  failures: z.enum(["omit", "note"]).default("omit"),
  /**
   * A plain assistant message (no tool calls) whose text starts with one of these words is a failed
   * call too: the loops write `LLM_ERROR` first, and a store without `partType` keeps only the text.
   * An empty list recognises `error` items alone.
   */
  errorTextPrefixes: z.array(z.string().trim().min(1)).default(["LLM_ERROR"]),
  /** Late in the filter stage, so that what the filter plugin removed does not split a run of failures. */
  stage: z.number().default(STAGE.LATE),
});

export type FailedCallsPluginOptions = z.input<typeof failedCallsPluginOptionsSchema>;

/** Failures in a row (no answer from the model between them) with the same cause. */
interface Run {
  readonly key: string;
  readonly cause: string | undefined;
  readonly positions: number[];
}

interface Failure {
  readonly item: Item;
  readonly label: string;
  readonly key: string;
  readonly cause: string | undefined;
}

export class FailedCallsPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof failedCallsPluginOptionsSchema>;
  // The note sent for a failure, kept per item so that a rebuild sends the same object (later stages
  // reuse their work for items they saw before).
  readonly #notes = new WeakMap<Item, ItemOf<"assistant">>();
  // What a failure says, read once per item object.
  readonly #described = new WeakMap<Item, Failure>();
  // Where the failures are: a rebuild looks only at the items appended since the last one.
  readonly #failures = new MatchingPositions((item) => this.#isFailure(item));

  constructor(options: FailedCallsPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, failedCallsPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.filter.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => this.#leaveOut(items, context));
  }

  /** Whether an item is a persisted failed call. */
  #isFailure(item: Item): boolean {
    if (item.type === "error") return true;
    if (item.type !== "assistant" || item.toolCalls.length > 0) return false;
    const text = item.text.trimStart();
    return this.#options.errorTextPrefixes.some((prefix) => text.startsWith(prefix) && !/^\w/.test(text.slice(prefix.length)));
  }

  #leaveOut(items: Items, context: StageContext): Items | undefined {
    const positions = this.#failures.of(items, laneOf(context));
    if (positions.length === 0) return undefined;
    const failures = new Map<number, Failure>();
    for (const position of positions) {
      const item = items[position]!;
      let failure = this.#described.get(item);
      if (failure === undefined) {
        failure = describe(item);
        this.#described.set(item, failure);
      }
      failures.set(position, failure);
    }

    const runs = runsOf(items, positions, failures);
    // Leaving every failure out must not leave nothing to send: then the last run gets a note anyway.
    const alone = !items.some((item, position) => !failures.has(position) && hasContent(item));
    const noted = new Set<Run>(this.#options.failures === "note" ? runs : alone ? [runs.at(-1)!] : []);
    const notes = new Map<number, Item>();
    for (const run of runs) {
      const last = items[run.positions.at(-1)!]!;
      const note = noted.has(run) ? this.#noteFor(last, noteText(run)) : undefined;
      for (const position of run.positions) {
        const failure = failures.get(position)!;
        const instead = note === undefined ? "" : `; the note "${note.id}" is sent instead`;
        context.report.drop(failure.item, `a failed model call (${failure.label}): not sent, so the model does not imitate it${instead}; it stays in the log`);
      }
      if (note === undefined) continue;
      notes.set(run.positions.at(-1)!, note);
      const ids = run.positions.map((position) => `"${items[position]!.id}"`).join(", ");
      const stands = run.positions.length === 1 ? `the failed model call ${ids}` : `the ${run.positions.length} failed model calls ${ids}, in a row with the same cause`;
      const why = this.#options.failures === "note" ? "" : ": without it nothing would be sent";
      context.report.synthesize(note, `stands for ${stands}${why}`);
    }

    // Copied in runs between failures: the history between them is most of the list.
    const output: Item[] = [];
    let from = 0;
    for (const position of positions) {
      for (let at = from; at < position; at++) output.push(items[at]!);
      const note = notes.get(position);
      if (note !== undefined) output.push(note);
      from = position + 1;
    }
    for (let at = from; at < items.length; at++) output.push(items[at]!);
    return output;
  }

  #noteFor(failure: Item, text: string): ItemOf<"assistant"> {
    const cached = this.#notes.get(failure);
    if (cached?.text === text) return cached;
    const note: ItemOf<"assistant"> = {
      id: `${NOTE_ID_PREFIX}${failure.id}`,
      ...(failure.createdAt === undefined ? {} : { createdAt: failure.createdAt }),
      metadata: {},
      type: "assistant",
      role: "assistant",
      text,
      toolCalls: [],
    };
    this.#notes.set(failure, note);
    return note;
  }
}

function storedCode(item: Item): string | undefined {
  if (item.type === "error" && item.code !== undefined) return item.code;
  // The loops store the code next to the message (`errorCode`), which the importer keeps in extra.
  const code = item.metadata.extra?.errorCode;
  return typeof code === "string" && code.trim() !== "" ? code : undefined;
}

function describe(item: Item): Failure {
  const { code, cause } = failureFacts(itemText(item), storedCode(item));
  const label = [code, cause].filter((part) => part !== undefined).join(", ");
  return { item, label: label === "" ? "cause unknown" : label, key: cause ?? "", cause };
}

/** Groups failures into runs: a run ends at an answer from the model, or at a failure with another cause. */
function runsOf(items: Items, positions: ReadonlyArray<number>, failures: ReadonlyMap<number, Failure>): Run[] {
  const runs: Run[] = [];
  let open: Run | undefined;
  let previous = -1;
  for (const position of positions) {
    // The model answering ends a run; the user asking again ("continue"), a system note, thinking or
    // a tool result (its call, before it, would have ended the run) does not.
    for (let at = previous + 1; open !== undefined && at < position; at++) {
      const item = items[at]!;
      if (item.role === "assistant" && hasContent(item)) open = undefined;
    }
    previous = position;
    const failure = failures.get(position)!;
    if (open?.key !== failure.key) {
      open = { key: failure.key, cause: failure.cause, positions: [] };
      runs.push(open);
    }
    open.positions.push(position);
  }
  return runs;
}

function noteText(run: Run): string {
  const attempts = run.positions.length === 1 ? "The previous attempt" : `The previous ${run.positions.length} attempts`;
  return run.cause === undefined ? `(${attempts} failed.)` : `(${attempts} failed: ${run.cause}.)`;
}

/** Whether an item would give the request a turn of its own (a result alone may be an orphan). */
function hasContent(item: Item): boolean {
  if (item.role === "system" || item.role === "tool" || item.type === "thinking") return false;
  if (item.type === "assistant" && item.toolCalls.length > 0) return true;
  if (item.type === "user" && (item.attachments?.length ?? 0) > 0) return true;
  return !isBlank(itemText(item));
}
