// Stored messages as Vercel AI SDK ModelMessages, for the AI SDK agent loop. Each stored message is
// converted once and the same ModelMessage object is returned afterwards, as an app that keeps its
// messages array between turns would hold them, so a benchmark turn measures the context work only.
import type { ModelMessage } from "ai";
import type { StoredMessage } from "./generate-conversation.js";

const converted = new WeakMap<StoredMessage, ModelMessage>();

/** The ModelMessage for one stored message: user text, assistant text and tool-call parts, a tool result. */
export function toModelMessage(message: StoredMessage): ModelMessage {
  let result = converted.get(message);
  if (result === undefined) {
    result = convert(message);
    converted.set(message, result);
  }
  return result;
}

/** The ModelMessages for a stored conversation, in order. */
export function toModelMessages(messages: ReadonlyArray<StoredMessage>): ModelMessage[] {
  return messages.map(toModelMessage);
}

function convert(message: StoredMessage): ModelMessage {
  const text = message.content ?? "";
  switch (message.role) {
    case "user":
      return { role: "user", content: text };
    case "assistant": {
      const calls = (message.tool_calls ?? []).map((call) => ({
        type: "tool-call" as const,
        toolCallId: call.id,
        toolName: call.function.name,
        input: JSON.parse(call.function.arguments) as unknown,
      }));
      if (calls.length === 0) return { role: "assistant", content: text };
      return { role: "assistant", content: [...(text === "" ? [] : [{ type: "text" as const, text }]), ...calls] };
    }
    case "tool":
      return {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: message.tool_call_id ?? "",
            toolName: message.toolName ?? "unknown",
            output: message.is_error === true ? { type: "error-text", value: text } : { type: "text", value: text },
          },
        ],
      };
  }
}
