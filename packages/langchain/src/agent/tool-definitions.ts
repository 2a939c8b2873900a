// The tool definitions a build counts, from the tools an agent's model call carries: LangChain tools
// (a name, a description and a zod or JSON schema) and plain `{ name, description, parameters }`
// objects. Provider-side tools (`{ type: "web_search" }`) have no schema to count and are left out.
import type { ToolDefinitionInput } from "@ctxpipe/core";
import { toJsonSchema } from "@langchain/core/utils/json_schema";

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
// One definition per tool object: the agent hands the same tools to every model call.
const definitions = new WeakMap<object, ToolDefinitionInput | null>();

function parametersOf(schema: unknown): Record<string, unknown> {
  if (typeof schema !== "object" || schema === null) return { type: "object", properties: {} };
  try {
    const json = toJsonSchema(schema as Parameters<typeof toJsonSchema>[0]) as Record<string, unknown>;
    return json.type === undefined || json.type === "object" ? json : { type: "object", properties: {} };
  } catch {
    return { type: "object", properties: {} };
  }
}

function definitionOf(tool: object): ToolDefinitionInput | null {
  const { name, description, schema, parameters } = tool as { name?: unknown; description?: unknown; schema?: unknown; parameters?: unknown };
  if (typeof name !== "string" || !TOOL_NAME.test(name)) return null;
  return {
    name,
    ...(typeof description === "string" && description.length > 0 ? { description } : {}),
    parameters: parametersOf(schema ?? parameters),
  };
}

export function toolDefinitionsOf(tools: ReadonlyArray<unknown>): ToolDefinitionInput[] {
  const result: ToolDefinitionInput[] = [];
  for (const tool of tools) {
    if (typeof tool !== "object" || tool === null) continue;
    let definition = definitions.get(tool);
    if (definition === undefined) {
      definition = definitionOf(tool);
      definitions.set(tool, definition);
    }
    if (definition !== null) result.push(definition);
  }
  return result;
}
