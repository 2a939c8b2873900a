// Default repair-orphans stage, basic version. Makes tool calls and results pair up the way every
// provider requires, and reports each repair:
// - consecutive assistant messages that each make calls (seed 001 stores parallel calls as one chunk
//   each) are merged into the first, so all the results can follow all the calls;
// - a result is moved right after the assistant message that made its call when something else came
//   in between; a result whose call is not in the context, or a second result for one call, is dropped;
// - a call that never got a result gets a synthesized one saying so, so the model knows rather than
//   the provider rejecting the request.
import { z } from "zod";
import type { Item, ItemOf } from "../model/item.js";
import type { PipelinePlugin, PluginHost } from "../pipeline/pipeline-hooks.js";
import { STAGE } from "../pipeline/stage.js";
import type { StageContext } from "../pipeline/stage-context.js";
import { parsePluginOptions } from "./parse-plugin-options.js";

const PLUGIN_NAME = "RepairOrphansPlugin";

const repairOrphansPluginOptionsSchema = z.strictObject({
  /** Text of the result synthesized for a call that never got one. */
  interruptedText: z.string().min(1).default("The tool call was interrupted before it returned a result."),
  /** Text of the result synthesized for a call whose result an earlier stage left out. */
  omittedText: z.string().min(1).default("The result of this tool call was left out of the context."),
  stage: z.number().default(STAGE.DEFAULT),
});

export type RepairOrphansPluginOptions = z.input<typeof repairOrphansPluginOptionsSchema>;

type Assistant = ItemOf<"assistant">;
type ToolResult = ItemOf<"tool-result">;

/** An assistant message that makes calls, with the results gathered for it. */
interface CallBlock {
  assistant: Assistant;
  readonly results: ToolResult[];
}

function joinText(first: string, second: string): string {
  if (first.trim() === "") return second;
  if (second.trim() === "") return first;
  return `${first}\n${second}`;
}

function makesCalls(item: Item): item is Assistant {
  return item.type === "assistant" && item.toolCalls.length > 0;
}

export class RepairOrphansPlugin implements PipelinePlugin {
  readonly name = PLUGIN_NAME;
  readonly #options: z.output<typeof repairOrphansPluginOptionsSchema>;

  constructor(options: RepairOrphansPluginOptions = {}) {
    this.#options = parsePluginOptions(PLUGIN_NAME, repairOrphansPluginOptionsSchema, options);
  }

  apply(pipeline: PluginHost): void {
    pipeline.hooks.repairOrphans.tap({ name: PLUGIN_NAME, stage: this.#options.stage }, (items, context) => {
      const merged = mergeParallelCalls(items, context);
      const repaired = this.#pairResults(merged.items, context);
      return merged.changed || repaired.changed ? repaired.items : undefined;
    });
  }

  #pairResults(items: ReadonlyArray<Item>, context: StageContext): { items: Item[]; changed: boolean } {
    const sequence: Array<Item | CallBlock> = [];
    // The block still waiting for each call id: the latest assistant message that made that call.
    const waiting = new Map<string, CallBlock>();
    const answered = new Set<string>();
    let changed = false;
    let previous: Item | undefined;
    for (const item of items) {
      if (makesCalls(item)) {
        const block: CallBlock = { assistant: item, results: [] };
        for (const call of item.toolCalls) waiting.set(call.id, block);
        sequence.push(block);
      } else if (item.type === "tool-result") {
        const block = waiting.get(item.callId);
        if (block === undefined) {
          const why = answered.has(item.callId) ? `a second result for call "${item.callId}"` : `result of call "${item.callId}", which no earlier assistant message made`;
          context.report.drop(item, why);
          changed = true;
        } else {
          waiting.delete(item.callId);
          answered.add(item.callId);
          const adjacent = previous === block.assistant || (previous?.type === "tool-result" && block.results.includes(previous));
          if (!adjacent) {
            context.report.repair(item, `moved right after the assistant message "${block.assistant.id}" that made call "${item.callId}"`);
            changed = true;
          }
          block.results.push(item);
        }
      } else {
        sequence.push(item);
      }
      previous = item;
    }

    // Calls whose stored result an earlier stage removed get a different explanation than interrupted ones.
    const present = new Set(items.map((item) => item.id));
    const storedResults = new Set(context.inputItems.filter((item) => item.type === "tool-result" && !present.has(item.id)).map((item) => (item as ToolResult).callId));
    const output: Item[] = [];
    for (const entry of sequence) {
      if (!("assistant" in entry)) {
        output.push(entry);
        continue;
      }
      output.push(entry.assistant, ...entry.results);
      const got = new Set(entry.results.map((result) => result.callId));
      for (const call of entry.assistant.toolCalls) {
        if (got.has(call.id)) continue;
        got.add(call.id);
        const omitted = storedResults.has(call.id);
        const result: ToolResult = {
          id: `ctxpipe:${omitted ? "omitted" : "interrupted"}:${entry.assistant.id}:${call.id}`,
          type: "tool-result",
          role: "tool",
          callId: call.id,
          toolName: call.name,
          output: omitted ? this.#options.omittedText : this.#options.interruptedText,
          isError: true,
          kind: call.kind,
          metadata: {},
        };
        context.report.synthesize(result, `call "${call.id}" (${call.name}) ${omitted ? "had its result left out by an earlier stage" : "had no result"}`);
        output.push(result);
        changed = true;
      }
    }
    return { items: output, changed };
  }
}

/** Merges runs of assistant messages that make calls (thinking may sit between them) into the first. */
function mergeParallelCalls(items: ReadonlyArray<Item>, context: StageContext): { items: Item[]; changed: boolean } {
  const output: Item[] = [];
  let head: { position: number; assistant: Assistant; absorbed: string[] } | undefined;
  const finishHead = () => {
    if (head === undefined || head.absorbed.length === 0) return;
    context.report.repair(head.assistant, `took the parallel tool calls of ${head.absorbed.map((id) => `"${id}"`).join(", ")}, stored as separate messages`);
  };
  let changed = false;
  for (const item of items) {
    if (makesCalls(item) && head !== undefined) {
      const combined: Assistant = {
        ...head.assistant,
        text: joinText(head.assistant.text, item.text),
        toolCalls: [...head.assistant.toolCalls, ...item.toolCalls],
      };
      const reasoning = [...(head.assistant.reasoning ?? []), ...(item.reasoning ?? [])];
      if (reasoning.length > 0) combined.reasoning = reasoning;
      head.assistant = combined;
      head.absorbed.push(item.id);
      output[head.position] = combined;
      context.report.merge(item, combined.id, "its tool calls joined the assistant message before it, so all results can follow all calls");
      changed = true;
      continue;
    }
    if (item.type !== "thinking") {
      finishHead();
      head = makesCalls(item) ? { position: output.length, assistant: item, absorbed: [] } : undefined;
    }
    output.push(item);
  }
  finishHead();
  return { items: output, changed };
}
