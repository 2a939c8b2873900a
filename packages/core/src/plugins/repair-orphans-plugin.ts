// Default repair-orphans stage: turns any item list into one every provider accepts, and reports each
// repair. The passes, in order (each leaves the list untouched when it finds nothing to do):
// 1. item by item: lone surrogates, invisible-only text, over-long strings, empty tool results,
//    tool names and call arguments (sanitize-item.ts; cached per item, so rebuilds pay only for new items);
// 2. a call-making message stored twice in one turn is dropped (drop-copied-messages.ts), and
//    parallel calls stored as separate messages are merged (merge-parallel-calls.ts);
// 3. calls stored without an id are paired by position with results stored without one, and given an
//    id (pair-empty-call-ids.ts);
// 4. calls and results are paired, regrouped, ordered, deduplicated, synthesized (pair-results.ts);
// 5. call ids are made unique and portable, with their results (rewrite-call-ids.ts);
// 6. the conversation starts and ends with a user turn (conversation-edges.ts).
// Passes 1–5 keep the repairs of older turns from build to build (repair-memo.ts).
import { z } from "zod";
import type { Item } from "../model/item.js";
import { type Lane, laneOf } from "../pipeline/build-context.js";
import type { Items, PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import type { StageContext } from "../pipeline/stage-context.js";
import { PROVIDER_MAX_STRING_LENGTH } from "../validation/portable-limits.js";
import { parsePluginOptions } from "./parse-plugin-options.js";
import { repairEdges } from "./repair/conversation-edges.js";
import { dropCopiedMessages } from "./repair/drop-copied-messages.js";
import { mergeParallelCalls } from "./repair/merge-parallel-calls.js";
import { pairEmptyCallIds } from "./repair/pair-empty-call-ids.js";
import { pairResults } from "./repair/pair-results.js";
import { type PartScope, RepairMemo } from "./repair/repair-memo.js";
import { rewriteCallIds } from "./repair/rewrite-call-ids.js";
import { type Sanitized, sanitizeItem } from "./repair/sanitize-item.js";

const PLUGIN_NAME = "RepairOrphansPlugin";

const repairOrphansPluginOptionsSchema = z.strictObject({
  /** Text of the result synthesized for a call that never got one. */
  interruptedText: z.string().trim().min(1).default("The tool call was interrupted before it returned a result."),
  /** Text of the result synthesized for a call whose result an earlier stage left out. */
  omittedText: z.string().trim().min(1).default("The result of this tool call was left out of the context."),
  /** A result whose call is not in the context: dropped (default), or kept as user text. */
  orphanResults: z.enum(["drop", "text"]).default("drop"),
  /** A call without a result: answered by a synthesized error result (default), or removed. */
  unansweredCalls: z.enum(["synthesize", "strip"]).default("synthesize"),
  /** Output sent for a tool result that returned nothing visible. */
  emptyResultText: z.string().trim().min(1).default("(no output)"),
  /** Longer strings are cut on a code-point boundary; at most OpenAI's 10,485,760-character limit less room for labels. */
  maxStringLength: z.number().int().min(1000).max(PROVIDER_MAX_STRING_LENGTH - 65_536).default(10_000_000),
  /** Text of the user turn put in front of a conversation that starts with the assistant. */
  leadingUserText: z.string().trim().min(1).default("(The conversation so far is below.)"),
  /** A conversation ending with the assistant: a user turn asking to continue is added (default), or it is kept as prefill. */
  trailingAssistant: z.enum(["continue", "keep"]).default("continue"),
  continueText: z.string().trim().min(1).default("Continue."),
  stage: z.number().default(STAGE.DEFAULT),
});

export type RepairOrphansPluginOptions = z.input<typeof repairOrphansPluginOptionsSchema>;

export class RepairOrphansPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof repairOrphansPluginOptionsSchema>;
  // Items are immutable, so what sanitizing one gives is computed once per item object.
  readonly #sanitized = new WeakMap<Item, Sanitized>();
  // Keeps the repairs of the turns before the newest one for the next build.
  readonly #memos = new Map<Lane, RepairMemo>();

  constructor(options: RepairOrphansPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, repairOrphansPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.repairOrphans.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => {
      let repaired: Items;
      const lane = laneOf(context);
      let memo = this.#memos.get(lane);
      if (memo === undefined) {
        memo = new RepairMemo();
        this.#memos.set(lane, memo);
      }
      if (context.violations.length > 0) {
        // A second pass, sent back by validation: repaired in full, and nothing of it is kept.
        memo.forget();
        repaired = this.#repairPart(items, context, undefined);
      } else {
        repaired = memo.repair(items, context, (part, partContext, scope) => this.#repairPart(part, partContext, scope), (item) => !("drop" in this.#sanitizedOf(item)));
      }
      const edged = repairEdges(repaired, context, this.#options);
      if (edged !== undefined) return edged;
      return repaired === items ? undefined : repaired;
    });
  }

  /** Passes 1–5 over a list, or over one part of it (see repair-memo.ts); the same array when nothing changed. */
  #repairPart(items: Items, context: StageContext, scope: PartScope | undefined): Items {
    let current: Items = items;
    for (const pass of [
      (list: Items) => this.#sanitize(list, context),
      (list: Items) => dropCopiedMessages(list, context),
      (list: Items) => mergeParallelCalls(list, context),
      (list: Items) => pairEmptyCallIds(list, context, scope?.reserved),
      (list: Items) => pairResults(list, context, this.#options, scope?.pair),
      (list: Items) => rewriteCallIds(list, context, scope?.reserved),
    ]) {
      current = pass(current) ?? current;
    }
    return current;
  }

  #sanitizedOf(item: Item): Sanitized {
    let outcome = this.#sanitized.get(item);
    if (outcome === undefined) {
      outcome = sanitizeItem(item, this.#options);
      this.#sanitized.set(item, outcome);
    }
    return outcome;
  }

  #sanitize(items: Items, context: StageContext): Item[] | undefined {
    let output: Item[] | undefined;
    items.forEach((item, index) => {
      const outcome = this.#sanitizedOf(item);
      if ("drop" in outcome) {
        output ??= items.slice(0, index);
        context.report.drop(item, outcome.drop);
        return;
      }
      if (outcome.item !== item) {
        output ??= items.slice(0, index);
        context.report.repair(item, outcome.reasons.join("; "));
      }
      output?.push(outcome.item);
    });
    return output;
  }
}
