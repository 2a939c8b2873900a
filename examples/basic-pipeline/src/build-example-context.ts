// Loads the bundled conversation (the stored message shape with OpenAI-like `tool_calls`, one JSON
// object per line), imports it into ctxpipe's items and builds the OpenAI request with the default
// pipeline.
import { readFileSync } from "node:fs";
import { type BuildResult, createPipeline, importStoredMessages, type OpenAIChatRequest } from "@ctxpipe/core";

export const EXAMPLE_DATA = new URL("../data/conversation.jsonl", import.meta.url);

export function readJsonLines(path: URL): unknown[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);
}

export async function buildExampleContext(path: URL = EXAMPLE_DATA): Promise<BuildResult<OpenAIChatRequest>> {
  const items = importStoredMessages(readJsonLines(path));
  const pipeline = createPipeline();
  return pipeline.build(items, {
    model: "gpt-4o",
    system: ["You are a senior build engineer.", "Answer in short, concrete steps."],
    tools: [{ name: "read_file", description: "Read a file from the repository", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }],
    maxTokens: 128_000,
    reserveOutputTokens: 4_096,
  });
}
