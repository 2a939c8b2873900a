// OpenAI Responses rules on the request's own fields: tools, instructions, max_output_tokens and
// prompt_cache_key (reference/providers.md §2: RSP-018…022, 024).
import { isBlank, promptCacheKeyRule, type Rule, type RuleViolationInput } from "@ctxpipe/core";
import { at, describeValue, inputViewsOf, isRecord, type JsonRecord } from "./openai-responses-input-view.js";

const NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;
/** What Chat Completions, Anthropic and Gemini take: a history moves between providers with its names. */
const PORTABLE_NAME_LENGTH = 64;
/** The smallest max_output_tokens the API takes. */
export const MIN_OUTPUT_TOKENS = 16;

/** The function tools of a request, with their positions in `tools`. */
function functionTools(request: unknown): Array<{ position: number; tool: JsonRecord }> {
  if (!isRecord(request) || !Array.isArray(request.tools)) return [];
  const found: Array<{ position: number; tool: JsonRecord }> = [];
  (request.tools as unknown[]).forEach((tool, position) => {
    if (isRecord(tool) && tool.type === "function") found.push({ position, tool });
  });
  return found;
}

/** A top-level field that is set: neither missing nor null. */
function setField(request: unknown, key: string): { value: unknown } | undefined {
  if (!isRecord(request) || request[key] === undefined || request[key] === null) return undefined;
  return { value: request[key] };
}

export const toolsWellFormed: Rule<unknown> = {
  id: "RSP-018",
  level: "error",
  requires: "tools is an array of tool objects with a type; a function tool's name matches ^[a-zA-Z0-9_-]+$ and its parameters, when given, are a JSON Schema object",
  providerError: "Invalid 'tools[16].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
  check(request, report) {
    const tools = setField(request, "tools");
    if (tools === undefined) return;
    if (!Array.isArray(tools.value)) return report({ message: `tools is ${describeValue(tools.value)}, not an array`, path: "tools" });
    (tools.value as unknown[]).forEach((tool, position) => {
      const path = `tools[${position}]`;
      if (!isRecord(tool)) report({ message: `the tool is ${describeValue(tool)}, not an object`, path });
      else if (typeof tool.type !== "string") report({ message: `the tool's type is ${describeValue(tool.type)}`, path: `${path}.type` });
      else if (tool.type !== "function") return;
      else if (typeof tool.name !== "string" || !NAME_PATTERN.test(tool.name)) report({ message: `the tool name is ${describeValue(tool.name)}; it may hold only letters, digits, '_' and '-'`, path: `${path}.name` });
      else if (tool.parameters !== undefined && tool.parameters !== null && !isRecord(tool.parameters)) report({ message: `parameters is ${describeValue(tool.parameters)}, not a JSON Schema object`, path: `${path}.parameters` });
    });
  },
};

export const namesPortableLength: Rule<unknown> = {
  id: "RSP-019",
  level: "strict",
  requires: `function tool names and function_call names are at most ${PORTABLE_NAME_LENGTH} characters, as Chat Completions, Anthropic and Gemini require`,
  check(request, report) {
    const tooLong = (name: unknown): name is string => typeof name === "string" && name.length > PORTABLE_NAME_LENGTH;
    const say = (name: string) => `the name is ${name.length} characters long; other providers take at most ${PORTABLE_NAME_LENGTH}`;
    for (const { position, tool } of functionTools(request)) if (tooLong(tool.name)) report({ message: say(tool.name), path: `tools[${position}].name` });
    for (const view of inputViewsOf(request)) if (view.kind === "function_call" && tooLong(view.fields.name)) report({ message: say(view.fields.name), ...at(view, ".name") });
  },
};

export const toolNamesUnique: Rule<unknown> = {
  id: "RSP-020",
  level: "strict",
  requires: "no two function tools share a name",
  check(request, report) {
    const first = new Map<string, number>();
    for (const { position, tool } of functionTools(request)) {
      if (typeof tool.name !== "string") continue;
      const earlier = first.get(tool.name);
      if (earlier === undefined) first.set(tool.name, position);
      else report({ message: `the tool name ${describeValue(tool.name)} is already used by tools[${earlier}]; the model could not tell them apart`, path: `tools[${position}].name` });
    }
  },
};

export const maxOutputTokensAtLeast16: Rule<unknown> = {
  id: "RSP-021",
  level: "error",
  requires: `max_output_tokens, when set, is an integer of at least ${MIN_OUTPUT_TOKENS}`,
  providerError: "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 10 instead.",
  check(request, report) {
    const field = setField(request, "max_output_tokens");
    if (field === undefined) return;
    const { value } = field;
    if (typeof value !== "number" || !Number.isInteger(value)) report({ message: `max_output_tokens is ${describeValue(value)}, not an integer`, path: "max_output_tokens" });
    else if (value < MIN_OUTPUT_TOKENS) report({ message: `max_output_tokens is ${value}; the API takes ${MIN_OUTPUT_TOKENS} or more`, path: "max_output_tokens" });
  },
};

export const instructionsNotBlank: Rule<unknown> = {
  id: "RSP-022",
  level: "strict",
  requires: "instructions, when sent, is a string with visible text (leave the field out rather than send it empty)",
  check(request, report) {
    const field = setField(request, "instructions");
    if (field === undefined) return;
    const violation: RuleViolationInput | undefined =
      typeof field.value !== "string"
        ? { message: `instructions is ${describeValue(field.value)}, not a string`, path: "instructions" }
        : isBlank(field.value)
          ? { message: "instructions is empty or only whitespace; leave it out", path: "instructions" }
          : undefined;
    if (violation !== undefined) report(violation);
  },
};

export const promptCacheKeyWithinLimit: Rule<unknown> = promptCacheKeyRule("RSP-024");
