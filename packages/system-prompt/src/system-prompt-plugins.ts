// The ready configuration: SystemPromptPlugin plus core's InsertSystemPlugin with the composer's `---`
// separator. The second has the default plugin's name, so createPipeline({ plugins }) replaces the
// default with it.
import { InsertSystemPlugin } from "@ctxpipe/core";
import { SECTION_SEPARATOR } from "./section-separator.js";
import { SystemPromptPlugin, type SystemPromptPluginOptions } from "./system-prompt-plugin.js";

export function systemPromptPlugins(options: SystemPromptPluginOptions = {}): [SystemPromptPlugin, InsertSystemPlugin] {
  return [new SystemPromptPlugin(options), new InsertSystemPlugin({ separator: SECTION_SEPARATOR })];
}
