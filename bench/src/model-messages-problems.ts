// What a provider would refuse in a ModelMessage list, counted the way the AI SDK's own users meet it:
// a tool call with no result right after its assistant message (OpenAI: "An assistant message with
// 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'"), and a result
// whose call is not right before it (Anthropic: "unexpected `tool_use_id` found in `tool_result` blocks").
import type { ModelMessage } from "ai";

/** The problems of one prompt, in words; empty when every call and result are paired. */
export function modelMessagesProblems(messages: ReadonlyArray<ModelMessage>): string[] {
  const problems: string[] = [];
  let open = new Set<string>();
  messages.forEach((message, index) => {
    if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        if (!open.delete(part.toolCallId)) problems.push(`messages[${index}]: a result for ${part.toolCallId} without its call right before it`);
      }
      return;
    }
    for (const id of open) problems.push(`messages[${index}]: the call ${id} has no result before this ${message.role} message`);
    open = new Set();
    if (message.role === "assistant" && typeof message.content !== "string") {
      for (const part of message.content) if (part.type === "tool-call") open.add(part.toolCallId);
    }
  });
  for (const id of open) problems.push(`the call ${id} has no result at the end of the prompt`);
  return problems;
}
