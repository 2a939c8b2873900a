// Raised when the prompt's input does not validate: names every offending field by its path, as
// text in the message (zod's prettified issues) and as data in `fields`.
import { PluginOptionsError } from "@ctxpipe/core";
import { z } from "zod";

export class SystemPromptInputError extends PluginOptionsError {
  /** Dotted paths of the fields at fault, e.g. "runContext.currentStep". */
  readonly fields: ReadonlyArray<string>;

  constructor(source: string, error: z.ZodError) {
    super(source, z.prettifyError(error));
    this.name = "SystemPromptInputError";
    this.fields = [...new Set(error.issues.map((issue) => issue.path.map(String).join(".")))];
  }
}

