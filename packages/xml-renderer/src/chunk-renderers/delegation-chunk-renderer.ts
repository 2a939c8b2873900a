// DELEGATION chunks: what this agent hands to its subagents (assistant) and what comes back from
// them or from its parent agent (user).
import type { ChunkRenderer } from "../chunk-renderer.js";
import { xmlElement } from "../xml-element.js";

export const delegationChunkRenderer: ChunkRenderer = {
  name: "DELEGATION",
  canRender: (item) => item.type === "subagent-spawn" || item.type === "subagent-message" || item.type === "subagent-result" || item.type === "parent-message",
  getRole: (item) => (item.type === "subagent-result" || item.type === "parent-message" ? "user" : "assistant"),
  render(item) {
    switch (item.type) {
      case "subagent-spawn":
        return xmlElement("spawn_subagent", { id: item.id, subagent_id: item.subagentId, agent_type: item.agentType }, item.text);
      case "subagent-message":
        return xmlElement("message_to_subagent", { id: item.id, subagent_id: item.subagentId }, item.text);
      case "subagent-result":
        return xmlElement("subagent_result", { id: item.id, subagent_id: item.subagentId, success: item.success }, item.text);
      case "parent-message":
        return xmlElement("parent_agent_message", { id: item.id, parent_agent_id: item.parentAgentId }, item.text);
      default:
        return "";
    }
  },
};
