// Raised when the prompt's input does not validate: names every offending field by its path, as
// text in the message (zod's prettified issues) and as data in `fields`.
import { PluginOptionsError } from "@ctxpipe/core";
import { z } from "zod";

/** An unknown key is reported at its parent's path: name the key itself, one field per key. */
function fieldsOf(issue: z.core.$ZodIssue): string[] {
  const path = issue.path.map(String);
  if (issue.code === "unrecognized_keys") return issue.keys.map((key) => [...path, key].join("."));
  return [path.join(".")];
}

export class SystemPromptInputError extends PluginOptionsError {
  /** Dotted paths of the fields at fault, e.g. "runContext.currentStep" or, for an unknown key, "agent.communication_style". */
  readonly fields: ReadonlyArray<string>;

  constructor(source: string, error: z.ZodError) {
    super(source, z.prettifyError(error));
    this.name = "SystemPromptInputError";
    this.fields = [...new Set(error.issues.flatMap(fieldsOf))];
  }
}

