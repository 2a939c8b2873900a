// Applies the chunk selection options to the items the renderer receives: which are left out
// entirely, and which assistant items lose some of their chunks (say, their tool calls when
// WORKFLOW is excluded). Done at render, after validation, so a tool result left out of the text
// never makes the pipeline repair its call.
import { type Item, type ItemOf, SYSTEM_PROMPT_ID } from "@ctxpipe/core";
import { chunkTypesOf } from "./chunk-type.js";
import type { ResolvedXmlRenderOptions } from "./xml-render-options.js";

export interface Selection {
  /** What is rendered, trimmed items replaced by their trimmed copies. */
  readonly items: Item[];
  /** Items left out, and why. */
  readonly leftOut: Array<{ readonly item: Item; readonly reason: string }>;
  /** Items sent without some of their chunks, and which. */
  readonly trimmed: Array<{ readonly item: Item; readonly reason: string }>;
}

// Ids ctxpipe reserves for items it synthesizes (the closing "Continue." turn, a placeholder result for
// an interrupted call). Core keeps its RESERVED_ID_PREFIX internal, so the documented literal is used.
const SYNTHESIZED = "ctxpipe:";

export function selectChunks(items: ReadonlyArray<Item>, options: ResolvedXmlRenderOptions): Selection {
  const selection: Selection = { items: [], leftOut: [], trimmed: [] };
  const onlyIds = options.includeOnlyChunkIds;
  const sentCallIds = new Set<string>();
  for (const item of items) {
    // The system prompt and what ctxpipe synthesized are no chunks: the selection options never
    // touch them (a request must still end on a user turn), except that a placeholder result goes
    // where its call goes, as it answers nothing without it.
    if (item.id === SYSTEM_PROMPT_ID || item.id.startsWith(SYNTHESIZED)) {
      if (item.type === "tool-result" && !sentCallIds.has(item.callId)) {
        selection.leftOut.push({ item, reason: "placeholder result of a call that is left out" });
        continue;
      }
      selection.items.push(item);
      continue;
    }
    if (onlyIds !== undefined && !onlyIds.has(item.id)) {
      selection.leftOut.push({ item, reason: "not in includeOnlyChunkIds" });
      continue;
    }
    if (!options.includeSystem && item.type === "system") {
      selection.leftOut.push({ item, reason: "includeSystem is false" });
      continue;
    }
    if (!options.includeEnvironment && item.type === "tool-result") {
      selection.leftOut.push({ item, reason: "includeEnvironment is false" });
      continue;
    }
    const types = chunkTypesOf(item);
    const excluded = types.filter((type) => options.excludeTypes.has(type));
    if (excluded.length > 0 && excluded.length === types.length) {
      selection.leftOut.push({ item, reason: `excludeTypes has ${excluded.join(", ")}` });
      continue;
    }
    let sent = item;
    if (excluded.length > 0 && item.type === "assistant") {
      sent = withoutChunks(item, new Set(excluded));
      selection.trimmed.push({ item: sent, reason: `left out its ${excluded.join(", ")} chunks: excludeTypes has them` });
    }
    if (sent.type === "assistant") for (const call of sent.toolCalls) sentCallIds.add(call.id);
    selection.items.push(sent);
  }
  return selection;
}

function withoutChunks(item: ItemOf<"assistant">, excluded: ReadonlySet<string>): ItemOf<"assistant"> {
  const trimmed: ItemOf<"assistant"> = { ...item };
  if (excluded.has("WORKING_FLOW")) delete trimmed.reasoning;
  if (excluded.has("WORKFLOW")) trimmed.toolCalls = [];
  // With its calls kept and its text excluded, the item is the calls alone.
  if (excluded.has("AGENT")) {
    trimmed.text = "";
    delete trimmed.clarification;
  }
  return trimmed;
}
