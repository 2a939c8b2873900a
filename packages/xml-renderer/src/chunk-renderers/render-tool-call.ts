// WORKFLOW chunks: one tool or skill call, its JSON arguments as the text. They live on assistant items.
import type { Item, ToolCall } from "@ctxpipe/core";
import { xmlElement } from "../xml-element.js";

export function renderToolCall(item: Item, call: ToolCall): string {
  if (call.kind === "skill") {
    return xmlElement("skill_call", { id: item.id, action: "skill_call", skill: call.name, call_id: call.id, status: call.status }, call.arguments);
  }
  return xmlElement("tool_call", { id: item.id, action: "tool_call", tool: call.name, call_id: call.id, status: call.status }, call.arguments);
}
