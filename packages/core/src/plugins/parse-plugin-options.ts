// Validates a plugin's options with its zod schema; bad options raise PluginOptionsError naming the
// plugin and every field, instead of failing later inside a build.
import { z } from "zod";
import { PluginOptionsError } from "../errors/plugin-options-error.js";

export function parsePluginOptions<Schema extends z.ZodType>(plugin: string, schema: Schema, options: unknown): z.output<Schema> {
  const result = schema.safeParse(options ?? {});
  if (!result.success) throw new PluginOptionsError(plugin, z.prettifyError(result.error));
  return result.data;
}
