// The memory chunk types, and which of them each item carries. Most items are one chunk; an assistant
// item can be several (its reasoning, its text and each of its tool calls), as a chat message holds
// what a memory-chunk store keeps as separate WORKING_FLOW, AGENT and WORKFLOW chunks.
import { type Item, isBlank, SYSTEM_PROMPT_ID } from "@ctxpipe/core";
import { memoryChunkOf } from "./memory-chunk-of.js";

export const CHUNK_TYPES = ["SYSTEM", "AGENT", "WORKFLOW", "DELEGATION", "ENVIRONMENT", "WORKING_FLOW", "OUTPUT"] as const;

export type ChunkType = (typeof CHUNK_TYPES)[number];

/** The memory chunks' enum spelling, so `excludeTypes: [ChunkType.OUTPUT]` reads as in chunk-based code. */
export const ChunkType: { readonly [Type in ChunkType]: Type } = {
  SYSTEM: "SYSTEM",
  AGENT: "AGENT",
  WORKFLOW: "WORKFLOW",
  DELEGATION: "DELEGATION",
  ENVIRONMENT: "ENVIRONMENT",
  WORKING_FLOW: "WORKING_FLOW",
  OUTPUT: "OUTPUT",
};

/**
 * The chunk types an item renders as, in output order; empty for the system prompt, which is no chunk,
 * and for a chunk of the application's own type (excludeTypes names built-in types only).
 */
export function chunkTypesOf(item: Item): ChunkType[] {
  const own = memoryChunkOf(item);
  if (own !== undefined) return (CHUNK_TYPES as ReadonlyArray<string>).includes(own.type) ? [own.type as ChunkType] : [];
  switch (item.type) {
    case "system":
      return item.id === SYSTEM_PROMPT_ID ? [] : ["SYSTEM"];
    case "user":
    case "error":
      return ["AGENT"];
    case "assistant": {
      const types: ChunkType[] = [];
      if (item.reasoning?.some((part) => part.redacted !== true)) types.push("WORKING_FLOW");
      if (!isBlank(item.text) || item.toolCalls.length === 0 || item.clarification === true) types.push("AGENT");
      if (item.toolCalls.length > 0) types.push("WORKFLOW");
      return types;
    }
    case "tool-result":
      return ["ENVIRONMENT"];
    case "subagent-spawn":
    case "subagent-message":
    case "subagent-result":
    case "parent-message":
      return ["DELEGATION"];
    case "summary":
    case "todo-update":
    case "thinking":
    case "user-intervention":
      return ["WORKING_FLOW"];
    case "task-completed":
    case "task-abandoned":
    case "task-terminated":
      return ["OUTPUT"];
  }
}
