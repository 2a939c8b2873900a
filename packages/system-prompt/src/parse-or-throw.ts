// Validates a value with a zod schema; failure raises SystemPromptInputError naming every bad field.
import type { z } from "zod";
import { SystemPromptInputError } from "./system-prompt-input-error.js";

export function parseOrThrow<Schema extends z.ZodType>(source: string, schema: Schema, value: unknown): z.output<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw new SystemPromptInputError(source, result.error);
  return result.data;
}
