// Renders one item as what it adds to an Anthropic turn: a role, content blocks and, for assistant
// items, the signed reasoning to replay as thinking blocks. Item types the API has no block for
// (subagents, todos, task outcomes) become labelled text in the role they have in the item model,
// as in the OpenAI renderer. Blank text never becomes a block (ANT-011, ANT-012).
import { isBlank, type Item, type ItemOf, summaryHeading } from "@ctxpipe/core";
import { anthropicAttachmentBlock } from "./anthropic-attachment-block.js";
import type { AnthropicAssistantContentBlock, AnthropicReplayedThinkingBlock, AnthropicTextBlock, AnthropicUserContentBlock } from "./anthropic-messages-request.js";
import { anthropicToolInput } from "./anthropic-tool-input.js";

export type AnthropicItemContent =
  | { readonly role: "user"; readonly blocks: ReadonlyArray<AnthropicUserContentBlock> }
  | {
      readonly role: "assistant";
      /** Signed reasoning, sent only when the item opens its assistant turn (ANT-014). */
      readonly thinking: ReadonlyArray<AnthropicReplayedThinkingBlock>;
      readonly blocks: ReadonlyArray<AnthropicAssistantContentBlock>;
    };

type SystemRoleItem = ItemOf<"system"> | ItemOf<"summary">;

const NO_OUTPUT = "(the tool returned no output)";
const NO_ERROR_OUTPUT = "(the tool failed without output)";

/** A system-role item's text in the top-level system prompt; empty when there is nothing to say. */
export function anthropicSystemText(item: SystemRoleItem): string {
  if (isBlank(item.text)) return "";
  return item.type === "summary" ? `${summaryHeading(item)}\n\n${item.text}` : item.text;
}

function labelled(label: string, text: string): string {
  return text.length === 0 ? label : `${label}\n${text}`;
}

function textBlocks(text: string): AnthropicTextBlock[] {
  return isBlank(text) ? [] : [{ type: "text", text }];
}

function user(blocks: AnthropicUserContentBlock[]): AnthropicItemContent | undefined {
  return blocks.length === 0 ? undefined : { role: "user", blocks };
}

function assistant(blocks: AnthropicAssistantContentBlock[], thinking: AnthropicReplayedThinkingBlock[] = []): AnthropicItemContent | undefined {
  // Reasoning alone would end the message with a thinking block (ANT-023): nothing is sent then.
  return blocks.length === 0 ? undefined : { role: "assistant", thinking, blocks };
}

/** Reasoning Anthropic accepts back: signed thinking and redacted thinking; unsigned text is not sent. */
function replayedThinking(reasoning: ItemOf<"assistant">["reasoning"]): AnthropicReplayedThinkingBlock[] {
  const blocks: AnthropicReplayedThinkingBlock[] = [];
  for (const entry of reasoning ?? []) {
    if (entry.redacted === true) {
      if (entry.text.length > 0) blocks.push({ type: "redacted_thinking", data: entry.text });
    } else if (entry.signature !== undefined && entry.signature.length > 0) {
      blocks.push({ type: "thinking", thinking: entry.text, signature: entry.signature });
    }
  }
  return blocks;
}

/** What the item adds to the request, or undefined when it has nothing Anthropic accepts. */
export function renderAnthropicItem(item: Item): AnthropicItemContent | undefined {
  switch (item.type) {
    case "system":
      // Inside the conversation, when it is not moved into the system prompt: user-side, labelled.
      return isBlank(item.text) ? undefined : user(textBlocks(`[System message]\n${item.text}`));
    case "summary":
      return user(textBlocks(anthropicSystemText(item)));
    case "user":
      // Anthropic recommends images and documents before the text that refers to them.
      return user([...(item.attachments ?? []).map(anthropicAttachmentBlock), ...textBlocks(item.text)]);
    case "user-intervention":
      return user(textBlocks(item.text));
    case "parent-message":
      return user(textBlocks(labelled(`Message from parent agent ${item.parentAgentId}:`, item.text)));
    case "subagent-result":
      return user(textBlocks(labelled(`Result from subagent ${item.subagentId} (${item.success ? "succeeded" : "failed"}):`, item.text)));
    case "tool-result": {
      const content = isBlank(item.output) ? (item.isError ? NO_ERROR_OUTPUT : NO_OUTPUT) : item.output;
      return user([{ type: "tool_result", tool_use_id: item.callId, content, ...(item.isError ? { is_error: true } : {}) }]);
    }
    case "assistant":
      return assistant(
        [...textBlocks(item.text), ...item.toolCalls.map((call) => ({ type: "tool_use" as const, id: call.id, name: call.name, input: anthropicToolInput(call.arguments) }))],
        replayedThinking(item.reasoning),
      );
    case "error":
      return assistant(textBlocks(item.text));
    case "subagent-spawn":
      return assistant(textBlocks(labelled(`Spawned subagent ${item.subagentId}${item.agentType === undefined ? "" : ` (${item.agentType})`} with task:`, item.text)));
    case "subagent-message":
      return assistant(textBlocks(labelled(`Message to subagent ${item.subagentId}:`, item.text)));
    case "todo-update":
      return assistant(textBlocks(labelled(`Todo update (${item.action}):`, item.text)));
    case "task-completed":
      return assistant(textBlocks(labelled("Task completed:", item.text)));
    case "task-abandoned":
      return assistant(textBlocks(labelled(item.reason === undefined ? "Task abandoned:" : `Task abandoned (${item.reason}):`, item.text)));
    case "task-terminated":
      return assistant(textBlocks(labelled(item.terminatedBy === undefined ? "Task terminated:" : `Task terminated by ${item.terminatedBy}:`, item.text)));
    case "thinking":
      // Unsigned reasoning: Anthropic accepts thinking back only with the signature it issued.
      return undefined;
  }
}
