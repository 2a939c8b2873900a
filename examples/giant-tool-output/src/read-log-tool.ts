// The agent's tool: it reads a whole log file and returns it as it is, however big. Nothing here
// truncates: the build does, and keeps the whole text for retrieve_context.
import { readFile } from "node:fs/promises";
import type { LoopTool } from "@ctxpipe/loop";

export function readLogTool(path: string): LoopTool {
  return {
    name: "read_log",
    description: "Reads the service's log file and returns all of it.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
    run: () => readFile(path, "utf8"),
  };
}
