// A tool the model may call, as the application declares it; renderers turn it into each provider's format.
import { z } from "zod";

export const toolDefinitionSchema = z.object({
  /** What every provider accepts: letters, digits, "_" and "-", at most 64 characters. */
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, "a tool name is 1 to 64 letters, digits, '_' or '-'"),
  description: z.string().optional(),
  /** JSON Schema of the arguments, which providers require to be an object. */
  parameters: z
    .record(z.string(), z.unknown())
    .refine((schema) => schema.type === undefined || schema.type === "object", 'the arguments schema must have type "object"')
    .default({ type: "object", properties: {} }),
});

/**
 * A build's tools: each with its own name. Two tools of one name leave the model unable to say which
 * it calls (and a provider to say which was meant), so the list is refused, naming both.
 */
export const toolDefinitionListSchema = z.array(toolDefinitionSchema).superRefine((tools, context) => {
  const first = new Map<string, number>();
  tools.forEach((tool, index) => {
    const earlier = first.get(tool.name);
    if (earlier === undefined) first.set(tool.name, index);
    else context.addIssue({ code: "custom", path: [index, "name"], message: `tools[${earlier}] is already named "${tool.name}": each tool needs a name of its own` });
  });
});

export type ToolDefinition = z.output<typeof toolDefinitionSchema>;
export type ToolDefinitionInput = z.input<typeof toolDefinitionSchema>;
