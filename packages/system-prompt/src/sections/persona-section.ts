// `## Agent Persona`, or the agent's precompiled system prompt, verbatim, in its place.
import type { AgentInfo } from "../input/agent-info.js";

export function personaSection(agent: AgentInfo): string {
  if (agent.systemPrompt !== undefined && agent.systemPrompt.trim().length > 0) return agent.systemPrompt;
  const lines = ["## Agent Persona", `**Name:** ${agent.name}`, `**Role:** ${agent.role}`];
  if (agent.identity) lines.push(`**Identity:** ${agent.identity}`);
  if (agent.communicationStyle) lines.push(`**Communication Style:** ${agent.communicationStyle}`);
  if (agent.principles !== undefined && agent.principles.length > 0) {
    lines.push("", "**Principles:**", ...agent.principles.map((principle) => `- ${principle}`));
  }
  return lines.join("\n");
}
