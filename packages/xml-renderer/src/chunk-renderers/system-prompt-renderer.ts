// The system prompt composed for this build (build option `system`, or `xml.systemPrompt`). It
// is the application's own text, not a stored chunk: it is sent as written, tags of its own included.
import { SYSTEM_PROMPT_ID } from "@ctxpipe/core";
import type { ChunkRenderer } from "../chunk-renderer.js";

export const systemPromptRenderer: ChunkRenderer = {
  name: "system-prompt",
  canRender: (item) => item.id === SYSTEM_PROMPT_ID && item.type === "system",
  getRole: () => "system",
  render: (item) => (item.type === "system" ? item.text : ""),
};
