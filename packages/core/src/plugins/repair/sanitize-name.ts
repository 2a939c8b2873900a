// Makes a stored tool name one every provider accepts (TOOL_NAME_PATTERN): MCP names such as
// "github.search" or "functions:eval" otherwise fail OAI-008 and GEM-020.
import { MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN } from "../../validation/portable-limits.js";

export function sanitizeToolName(name: string): string {
  if (TOOL_NAME_PATTERN.test(name)) return name;
  let safe = name.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (!/^[a-zA-Z_]/.test(safe)) safe = `_${safe}`;
  return safe.slice(0, MAX_TOOL_NAME_LENGTH);
}
