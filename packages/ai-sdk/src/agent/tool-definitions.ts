// Tool definitions for the budget: what the model is sent besides the messages. The middleware reads
// them from the call; prepareStep is not shown them, so the context takes the tool set as an option.
import type { ToolDefinitionInput } from "@ctxpipe/core";
import { asSchema, type ToolSet } from "ai";
import type { ProviderCallOptions } from "./provider-prompt.js";

type JsonObject = Record<string, unknown>;

function objectSchema(schema: unknown): JsonObject {
  // Providers take an object schema; anything else is counted as the empty one it stands in for.
  return typeof schema === "object" && schema !== null && !Array.isArray(schema) ? (schema as JsonObject) : { type: "object", properties: {} };
}

/** The function tools of a model call (provider-defined tools are described by the provider, not sent as schemas). */
export function callToolDefinitions(tools: ProviderCallOptions["tools"]): ToolDefinitionInput[] {
  return (tools ?? []).flatMap((tool) =>
    tool.type === "function"
      ? [{ name: tool.name, ...(tool.description === undefined ? {} : { description: tool.description }), parameters: objectSchema(tool.inputSchema) }]
      : [],
  );
}

const fromToolSets = new WeakMap<ToolSet, Promise<ToolDefinitionInput[]>>();

/** The definitions of a tool set as generateText sends them, worked out once per tool set. */
export function toolSetDefinitions(tools: ToolSet): Promise<ToolDefinitionInput[]> {
  let definitions = fromToolSets.get(tools);
  if (definitions === undefined) {
    definitions = Promise.all(
      Object.entries(tools).map(async ([name, tool]) => {
        const schema = tool.inputSchema === undefined ? undefined : await asSchema(tool.inputSchema).jsonSchema;
        return { name, ...(typeof tool.description === "string" ? { description: tool.description } : {}), parameters: objectSchema(schema) };
      }),
    );
    fromToolSets.set(tools, definitions);
  }
  return definitions;
}
