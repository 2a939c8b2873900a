// Reads a run context in either shape into the nested one, for callers that need the step itself
// (a loop deciding whether the run is still going) before the prompt is composed.
import { z } from "zod";
import { parseOrThrow } from "../parse-or-throw.js";
import type { RunContext } from "./run-context.js";
import { runContextSchema } from "./system-prompt-input-schema.js";

const readSchema = z.strictObject({ runContext: runContextSchema });

/**
 * The nested run context for a nested or flat one. Throws SystemPromptInputError naming each field at
 * fault under `runContext.` (e.g. "runContext.stepInstruction") when neither shape fits.
 */
export function readRunContext(value: unknown): RunContext {
  return parseOrThrow("readRunContext()", readSchema, { runContext: value }).runContext;
}
