// The JSON files some options name (--run-context, --agent, --tools): parsed here, checked by the
// plugin that reads them, whose complaints then name this file.
import { CliInputError } from "../cli/cli-input-error.js";
import { parseJsonText } from "./parse-json-text.js";

export function parseJsonOption(text: string, option: string, source: string): unknown {
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw new CliInputError([{ source: `${option} ${source}`, message: `not valid JSON: ${parsed.message}` }]);
  return parsed.value;
}
