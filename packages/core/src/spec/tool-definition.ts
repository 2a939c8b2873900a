// A tool the model may call, as the application declares it; renderers turn it into each provider's format.
import { z } from "zod";

export const toolDefinitionSchema = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  /** JSON Schema of the arguments object. */
  parameters: z.record(z.string(), z.unknown()).default({ type: "object", properties: {} }),
});

export type ToolDefinition = z.output<typeof toolDefinitionSchema>;
export type ToolDefinitionInput = z.input<typeof toolDefinitionSchema>;
