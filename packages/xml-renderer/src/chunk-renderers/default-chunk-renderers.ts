// The built-in chunk renderers, one per memory chunk type. Between them they render every item
// type (and chunks of the application's own types), so the XML renderer needs no custom renderer to
// send any conversation.
import type { ChunkRenderer } from "../chunk-renderer.js";
import { agentChunkRenderer } from "./agent-chunk-renderer.js";
import { delegationChunkRenderer } from "./delegation-chunk-renderer.js";
import { environmentChunkRenderer } from "./environment-chunk-renderer.js";
import { outputChunkRenderer } from "./output-chunk-renderer.js";
import { ownChunkRenderer } from "./own-chunk-renderer.js";
import { systemChunkRenderer } from "./system-chunk-renderer.js";
import { systemPromptRenderer } from "./system-prompt-renderer.js";
import { workingFlowChunkRenderer } from "./working-flow-chunk-renderer.js";

export const DEFAULT_CHUNK_RENDERERS: ReadonlyArray<ChunkRenderer> = Object.freeze([
  systemPromptRenderer,
  // Ahead of the renderers of item types: a chunk of the application's own type is no AGENT or SYSTEM chunk.
  ownChunkRenderer,
  systemChunkRenderer,
  agentChunkRenderer,
  delegationChunkRenderer,
  environmentChunkRenderer,
  workingFlowChunkRenderer,
  outputChunkRenderer,
]);
