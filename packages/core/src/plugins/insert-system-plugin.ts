// Default insert-system stage: merges the system prompt parts (from build options and from plugins
// that ran earlier in this stage) into one system message at the front, and decides what becomes of
// the system messages stored in the conversation (storedSystemMessages).
import { z } from "zod";
import { frozenMadeItem } from "../model/frozen-item.js";
import { isBlank } from "../model/is-blank.js";
import type { Item, ItemOf } from "../model/item.js";
import { type Lane, laneOf } from "../pipeline/build-context.js";
import { notePrefix, sharedPrefixLength } from "../pipeline/list-lineage.js";
import type { PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import type { StageContext } from "../pipeline/stage-context.js";
import { STAGE } from "../pipeline/stage.js";
import { SYSTEM_PROMPT_ID } from "../pipeline/system-prompt-id.js";
import { MatchingPositions, withoutPositions } from "./matching-positions.js";
import { parsePluginOptions } from "./parse-plugin-options.js";

const PLUGIN_NAME = "InsertSystemPlugin";

/**
 * What becomes of the system messages stored in the conversation:
 * - "auto": dropped when the build composes a system prompt (it replaces them), else as "prompt";
 * - "prompt": the leading ones join the system prompt, after the composed parts; later ones stay
 *   where they were stored, and each renderer sends them where its provider takes system text;
 * - "keep": each is sent as a message of its own where it was stored, after the composed prompt
 *   (for renderers that give stored system text a form of its own, as XML SYSTEM chunks);
 * - "drop": none is sent.
 */
export type StoredSystemMessages = "auto" | "prompt" | "keep" | "drop";

const insertSystemPluginOptionsSchema = z.strictObject({
  /** Placed between parts. */
  separator: z.string().default("\n\n"),
  /** What becomes of stored system messages; see StoredSystemMessages. Default "auto". */
  storedSystemMessages: z.enum(["auto", "prompt", "keep", "drop"]).default("auto"),
  /** Late in the stage, so plugins tapping at STAGE.DEFAULT can add parts first. */
  stage: z.number().default(STAGE.LATE),
});

export type InsertSystemPluginOptions = z.input<typeof insertSystemPluginOptionsSchema>;

const SENT_AS_PROMPT = "sent as the system prompt: this build composes none, so the stored system messages are the prompt";
const SENT_AFTER_PARTS = 'sent in the system prompt, after the composed parts (storedSystemMessages: "prompt")';
const BLANK = "stored system message: its text is blank, nothing to send";
const NOT_INCLUDED = "stored system message: includeSystemPrompt is false, so no system prompt is sent";
const DROPPED = 'stored system message: storedSystemMessages is "drop"';
const REPLACED = "stored system message: this build composes its own system prompt, which replaces the stored ones";

type Placement = { readonly merge: true; readonly reason: string } | { readonly drop: string } | undefined;

export class InsertSystemPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof insertSystemPluginOptionsSchema>;
  // The same prompt gives the same item object, so per-item token caches keep hitting across builds.
  readonly #last = new Map<Lane, ItemOf<"system">>();
  // The list this tap made last build per lane, from which list and with which prompt (none made from a list it took stored messages out of).
  readonly #made = new Map<Lane, { readonly system: Item; readonly items: ReadonlyArray<Item>; readonly made: ReadonlyArray<Item> } | undefined>();
  // Where the stored system messages are: a rebuild looks only at the items appended since the last one.
  readonly #stored = new MatchingPositions((item) => item.type === "system");

  constructor(options: InsertSystemPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, insertSystemPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.insertSystem.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => {
      const included = context.options.includeSystemPrompt !== false;
      const composed = included ? context.system.list().filter((part) => part.text.length > 0) : [];
      const placementOf = this.#placements(included, composed.length > 0);

      // Stored system messages are placed first: those that join the prompt become parts of it.
      const taken: number[] = [];
      const order = Math.max(0, ...composed.map((part) => part.order));
      const stored = this.#stored.of(items, laneOf(context));
      for (let index = 0; index < stored.length; index++) {
        const position = stored[index]!;
        const item = items[position] as ItemOf<"system">;
        // Leading: every item before it is a stored system message too.
        const placement = placementOf(item, position === index);
        if (placement === undefined) continue;
        taken.push(position);
        if ("drop" in placement) context.report.drop(item, placement.drop);
        else {
          context.system.add({ id: item.id, text: item.text, order });
          context.report.merge(item, SYSTEM_PROMPT_ID, placement.reason);
        }
      }
      const rest = taken.length === 0 ? undefined : withoutPositions(items, taken);

      const system = included ? this.#prompt(context) : undefined;
      if (system === undefined) return rest;
      // concat, not a spread: a spread walks the 10,000 items of a long history through an iterator.
      const made = ([system] as Item[]).concat(rest ?? items);
      // The same prompt before the list it was given: made as last build's was, it starts as that
      // one did for as long as the two lists it was given do (noted, for the check that compares them).
      const lane = laneOf(context);
      const last = this.#made.get(lane);
      if (rest === undefined && last !== undefined && last.system === system) notePrefix(made, last.made, 1 + sharedPrefixLength(items, last.items));
      this.#made.set(lane, rest === undefined ? { system, items, made } : undefined);
      return made;
    });
  }

  /** Where a stored system message goes: merged into the prompt, dropped (with why), or left where it is. */
  #placements(included: boolean, composed: boolean): (item: ItemOf<"system">, leading: boolean) => Placement {
    const policy = this.#options.storedSystemMessages;
    const mode = policy === "auto" ? (composed ? "replaced" : "prompt") : policy;
    return (item, leading) => {
      if (mode === "drop") return { drop: DROPPED };
      if (mode === "replaced") return { drop: REPLACED };
      if (mode === "prompt" && !included) return { drop: NOT_INCLUDED };
      if (isBlank(item.text)) return { drop: BLANK };
      if (mode === "prompt" && leading) return { merge: true, reason: composed ? SENT_AFTER_PARTS : SENT_AS_PROMPT };
      return undefined;
    };
  }

  /** The one system message made of every part, or undefined when there is none. */
  #prompt(context: StageContext): ItemOf<"system"> | undefined {
    const parts = context.system.list().filter((part) => part.text.length > 0);
    if (parts.length === 0) return undefined;
    const text = parts.map((part) => part.text).join(this.#options.separator);
    // Per lane: the policy view's prompt has no part of its own (a compression notice), and must not
    // make the build's prompt a new object on every build (every later stage would start over).
    const lane = laneOf(context);
    const last = this.#last.get(lane);
    const system: ItemOf<"system"> = last?.text === text ? last : systemItem(text);
    this.#last.set(lane, system);
    context.report.synthesize(system, `system prompt merged from ${parts.length} part(s): ${parts.map((part) => part.id).join(", ")}`);
    return system;
  }
}

/** The system prompt's item, as the check after the tap keeps it (no parsed copy put in its place on every build). */
function systemItem(text: string): ItemOf<"system"> {
  return frozenMadeItem<ItemOf<"system">>({ id: SYSTEM_PROMPT_ID, type: "system", role: "system", text, metadata: {} });
}
