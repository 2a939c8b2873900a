// Where the conversation starts and ends. Providers want the first turn from the user (ANT-004,
// GEM-006/015, Bedrock) and the last from the user or a tool (OAI-017, ANT-015, GEM-016: newer models
// reject assistant prefill). A history that starts with the assistant gets a short user turn in front;
// one that ends with the assistant (an answer, or a persisted error) gets a user turn asking to continue.
// Thinking is the assistant's own reasoning, not a turn, so it is looked through.
import type { Item, ItemOf } from "../../model/item.js";
import type { StageContext } from "../../pipeline/stage-context.js";

export interface EdgeOptions {
  readonly leadingUserText: string;
  readonly trailingAssistant: "continue" | "keep";
  readonly continueText: string;
}

export const LEADING_USER_ID = "ctxpipe:conversation-start";
export const CONTINUE_ID = "ctxpipe:continue";

function isTurn(item: Item): boolean {
  return item.role !== "system" && item.type !== "thinking";
}

function userItem(id: string, text: string): ItemOf<"user"> {
  return { id, type: "user", role: "user", text, metadata: {} };
}

export function repairEdges(items: ReadonlyArray<Item>, context: StageContext, options: EdgeOptions): Item[] | undefined {
  const first = items.findIndex(isTurn);
  if (first === -1) return undefined;
  let output: Item[] | undefined;

  const opener = items[first]!;
  if (opener.role === "assistant") {
    const lead = userItem(LEADING_USER_ID, options.leadingUserText);
    output = [...items.slice(0, first), lead, ...items.slice(first)];
    context.report.synthesize(lead, `the conversation started with ${opener.type} "${opener.id}"; providers want a user turn first`);
  }

  // The last message: a summary or system note after the conversation's first turn counts too, since
  // on OpenAI it stays a system message, which must not end the request either (OAI-017).
  let last = items.length - 1;
  while (last > first && items[last]!.type === "thinking") last--;
  const closer = items[last]!;
  if (options.trailingAssistant === "continue" && (closer.role === "assistant" || (closer.role === "system" && last > first))) {
    const next = userItem(CONTINUE_ID, options.continueText);
    output ??= [...items];
    output.push(next);
    context.report.synthesize(next, `the conversation ended with ${closer.type} "${closer.id}"; providers want the last turn from the user`);
  }
  return output;
}
