// Stored messages as LangChain.js messages, for the trimMessages baseline. Each stored message is
// converted once and the same LangChain object is returned afterwards, so a benchmark turn measures
// trimMessages, not the conversion of the whole history.
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import type { StoredMessage } from "./generate-conversation.js";

const converted = new WeakMap<StoredMessage, BaseMessage>();

/** The LangChain message for one stored message (HumanMessage, AIMessage with tool_calls, ToolMessage). */
export function toLangChainMessage(message: StoredMessage): BaseMessage {
  let result = converted.get(message);
  if (result === undefined) {
    result = convert(message);
    converted.set(message, result);
  }
  return result;
}

/** The LangChain messages for a stored conversation, in order. */
export function toLangChainMessages(messages: ReadonlyArray<StoredMessage>): BaseMessage[] {
  return messages.map(toLangChainMessage);
}

function convert(message: StoredMessage): BaseMessage {
  const content = message.content ?? "";
  switch (message.role) {
    case "user":
      return new HumanMessage({ id: message.id, content });
    case "assistant":
      return new AIMessage({
        id: message.id,
        content,
        tool_calls: (message.tool_calls ?? []).map((call) => ({
          id: call.id,
          name: call.function.name,
          args: JSON.parse(call.function.arguments) as Record<string, unknown>,
          type: "tool_call" as const,
        })),
      });
    case "tool":
      return new ToolMessage({
        id: message.id,
        content,
        tool_call_id: message.tool_call_id ?? "",
        ...(message.toolName === undefined ? {} : { name: message.toolName }),
        status: message.is_error === true ? "error" : "success",
      });
  }
}
