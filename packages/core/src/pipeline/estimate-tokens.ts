// Quick estimates of what items and the fixed parts of a request cost once rendered, for compress
// plugins that must decide what to cut before anything is rendered. The render check after them is
// exact; an estimate that falls short only costs the build a second attempt.
import { isBlank } from "../model/is-blank.js";
import type { Item } from "../model/item.js";
import type { TurnGroup, TurnGroups } from "../model/turn-groups.js";
import type { Items } from "./pipeline-hooks.js";
import type { StageContext } from "./stage-context.js";

// What a message costs on top of its text in every provider's format (OpenAI: 3 + the role), and
// what a request costs before its first message (OpenAI primes the reply with 3).
const PER_ITEM = 4;
const PER_TOOL_CALL = 3;
const PER_REQUEST = 3;

/** An item's estimated cost in the rendered request: its content plus the message overhead. */
export function estimateItemTokens(item: Item, context: Pick<StageContext, "countTokens">): number {
  // Stored system messages are skipped by the filter stage and never sent; they cost nothing here.
  if (item.type === "system") return 0;
  const calls = item.type === "assistant" ? item.toolCalls.length : 0;
  return context.countTokens(item) + PER_ITEM + PER_TOOL_CALL * calls;
}

/** What the request costs besides the items: the system prompt parts added so far and the tool definitions. */
export function estimateFixedTokens(context: Pick<StageContext, "system" | "tools" | "tokenizer">): number {
  let total = PER_REQUEST;
  for (const part of context.system.list()) total += PER_ITEM + context.tokenizer.count(part.text);
  if (context.tools.length > 0) total += context.tokenizer.count(JSON.stringify(context.tools));
  return total;
}

/**
 * The current loop: the newest turn group opened by something the user said that will be sent. A
 * newer turn opened by a blank or excluded message protects nothing on its own. Compression must
 * leave every item of this group alone; the first group is returned when no turn qualifies.
 * `itemById` finds an item of `items` by id (a Map built once by the caller, or a search).
 */
export function currentTurnOf(turns: TurnGroups, itemById: (id: string) => Item | undefined): TurnGroup | undefined {
  const groups = turns.groups;
  for (let index = groups.length - 1; index > 0; index--) {
    const group = groups[index]!;
    const opener = group.openedBy === undefined ? undefined : itemById(group.openedBy);
    if (opener === undefined || opener.metadata.includeInContext === false) continue;
    const hasAttachments = opener.type === "user" && opener.attachments !== undefined && opener.attachments.length > 0;
    if (hasAttachments || ("text" in opener && !isBlank(opener.text))) return group;
  }
  return groups[0];
}

/** Maps each item's id to its position in the list. */
export function positionsOf(items: Items): Map<string, number> {
  const positions = new Map<string, number>();
  for (let index = 0; index < items.length; index++) positions.set(items[index]!.id, index);
  return positions;
}
