// OpenAI Responses rules on the input list and the shape of its items: what each item type must carry,
// and the item ids the API gave (reference/providers.md §2: RSP-010…014).
import type { Rule, RuleViolationInput } from "@ctxpipe/core";
import { at, describeValue, type InputItemKind, type InputItemView, inputViewsOf, isRecord } from "./openai-responses-input-view.js";

const MESSAGE_ROLES: ReadonlySet<string> = new Set(["user", "system", "developer", "assistant"]);
/** Content parts of user, system and developer messages, and of function outputs. */
const INPUT_PART_TYPES: ReadonlySet<string> = new Set(["input_text", "input_image", "input_file"]);
/** Content parts of an assistant message sent back. */
const OUTPUT_PART_TYPES: ReadonlySet<string> = new Set(["output_text", "refusal"]);
/** The prefix the API expects of the id of each item type it checks. */
const ID_PREFIXES: ReadonlyMap<string, string> = new Map([
  ["input-message", "msg"],
  ["assistant-message", "msg"],
  ["function_call", "fc"],
  ["reasoning", "rs"],
]);
const MAX_ID_LENGTH = 64;
const ID_PATTERN = /^[a-zA-Z0-9_-]+$/;

// The id checks of RSP-012…014, shared with the renderer, which sends no id the API would refuse.

/** Whether an id fits the item's kind: a message's begins with msg, a call's with fc, a reasoning item's with rs (other kinds: any). */
export function hasTypePrefix(kind: InputItemKind, id: string): boolean {
  const prefix = ID_PREFIXES.get(kind);
  return prefix === undefined || id.startsWith(prefix);
}

export function isWithinIdLimit(id: string): boolean {
  return id.length <= MAX_ID_LENGTH;
}

/** A non-empty string of letters, digits, '_' and '-'. */
export function matchesIdPattern(id: unknown): boolean {
  return typeof id === "string" && ID_PATTERN.test(id);
}

/**
 * Why the API would refuse an item of this kind sent with this `id` field, in words that follow "the
 * id": undefined when it takes it, or when there is no id to send (missing or null).
 */
export function idRefusal(kind: InputItemKind, id: unknown): string | undefined {
  if (id === undefined || id === null) return undefined;
  if (typeof id !== "string") return `is ${describeValue(id)}, not a string`;
  if (id === "") return "is empty";
  if (!hasTypePrefix(kind, id)) return `does not begin with '${ID_PREFIXES.get(kind)}', as the ids the API gives these items do`;
  if (!isWithinIdLimit(id)) return `is ${id.length} characters long, and the API takes at most ${MAX_ID_LENGTH}`;
  if (!matchesIdPattern(id)) return "holds characters other than letters, digits, '_' and '-'";
  return undefined;
}

type Report = (violation: RuleViolationInput) => void;

/** Whether the request names stored state (a previous response, a conversation, a prompt) that can stand in for `input`. */
function hasStoredInput(request: { readonly [key: string]: unknown }): boolean {
  return ["previous_response_id", "conversation", "prompt"].some((key) => request[key] !== undefined && request[key] !== null);
}

function checkParts(view: InputItemView, field: "content" | "output", allowed: ReadonlySet<string>, report: Report): void {
  const parts = view.fields[field];
  if (!Array.isArray(parts)) return;
  (parts as unknown[]).forEach((part, position) => {
    const where = (suffix: string) => at(view, `.${field}[${position}]${suffix}`);
    if (!isRecord(part)) report({ message: `the content part is ${describeValue(part)}, not an object`, ...where("") });
    else if (typeof part.type !== "string" || !allowed.has(part.type)) report({ message: `this item takes ${[...allowed].join(", ")} parts, not ${describeValue(part.type)}`, ...where(".type") });
    else if ((part.type === "input_text" || part.type === "output_text") && typeof part.text !== "string") report({ message: `the text part's text is ${describeValue(part.text)}, not a string`, ...where(".text") });
    // The API writes annotations on every output_text, and stricter servers refuse one without them.
    else if (part.type === "output_text" && !Array.isArray(part.annotations)) report({ message: `the output_text part's annotations are ${describeValue(part.annotations)}, not a list (an empty one when there are none)`, ...where(".annotations") });
    else if (part.type === "refusal" && typeof part.refusal !== "string") report({ message: `the refusal part's refusal is ${describeValue(part.refusal)}, not a string`, ...where(".refusal") });
  });
}

function checkStringField(view: InputItemView, field: string, report: Report): void {
  const value = view.fields[field];
  if (typeof value !== "string") report({ message: `${field} is ${describeValue(value)}, not a string`, ...at(view, `.${field}`) });
}

function checkMessage(view: InputItemView, report: Report): void {
  const { fields } = view;
  if (typeof fields.role !== "string" || !MESSAGE_ROLES.has(fields.role)) report({ message: `the role is ${describeValue(fields.role)}, not one of ${[...MESSAGE_ROLES].join(", ")}`, ...at(view, ".role") });
  else if (typeof fields.content !== "string" && !Array.isArray(fields.content)) report({ message: `content is ${describeValue(fields.content)}; it must be a string or an array of content parts`, ...at(view, ".content") });
  else checkParts(view, "content", view.kind === "assistant-message" ? OUTPUT_PART_TYPES : INPUT_PART_TYPES, report);
}

function checkOutput(view: InputItemView, report: Report): void {
  checkStringField(view, "call_id", report);
  const { output } = view.fields;
  if (typeof output !== "string" && !Array.isArray(output)) report({ message: `output is ${describeValue(output)}; it must be a string or an array of content parts`, ...at(view, ".output") });
  else checkParts(view, "output", INPUT_PART_TYPES, report);
}

function checkReasoning(view: InputItemView, report: Report): void {
  const { summary, encrypted_content: encrypted } = view.fields;
  if (!Array.isArray(summary)) report({ message: `summary is ${describeValue(summary)}; a reasoning item carries an array of summary_text parts (it may be empty)`, ...at(view, ".summary") });
  else {
    (summary as unknown[]).forEach((part, position) => {
      if (!isRecord(part) || part.type !== "summary_text" || typeof part.text !== "string") report({ message: "a summary part is { type: 'summary_text', text: string }", ...at(view, `.summary[${position}]`) });
    });
  }
  if (encrypted !== undefined && encrypted !== null && typeof encrypted !== "string") report({ message: `encrypted_content is ${describeValue(encrypted)}, not a string`, ...at(view, ".encrypted_content") });
}

function checkItem(view: InputItemView, report: Report): void {
  if (!view.isObject) report({ message: "the item is not an object", ...at(view) });
  else if (view.type === undefined) report({ message: `type is ${describeValue(view.fields.type)}; every item names its type (a message may give only its role)`, ...at(view, ".type") });
  else if (view.kind === "input-message" || view.kind === "assistant-message") checkMessage(view, report);
  else if (view.kind === "function_call") for (const field of ["call_id", "name", "arguments"]) checkStringField(view, field, report);
  else if (view.kind === "function_call_output") checkOutput(view, report);
  else if (view.kind === "reasoning") checkReasoning(view, report);
}

export const inputWellFormed: Rule<unknown> = {
  id: "RSP-010",
  level: "error",
  requires:
    "input is a string or an array of items, each an object of its type: a message has a role (user, system, developer, assistant) and string or part content (an output_text part with its annotations list); a function_call has string call_id, name and arguments; a function_call_output a string call_id and string or part output; a reasoning item an array of summary parts",
  check(request, report) {
    if (!isRecord(request)) return report({ message: "the request is not an object with input", path: "input" });
    const input = request.input;
    if (input === undefined || input === null) {
      if (!hasStoredInput(request)) report({ message: "input is missing", path: "input" });
      return;
    }
    if (typeof input === "string") return;
    if (!Array.isArray(input)) return report({ message: `input is ${describeValue(input)}; it must be a string or an array of items`, path: "input" });
    for (const view of inputViewsOf(request)) checkItem(view, report);
  },
};

export const inputNotEmpty: Rule<unknown> = {
  id: "RSP-011",
  level: "strict",
  requires: "input is not an empty array or an empty string: the model has something to answer",
  check(request, report) {
    if (!isRecord(request) || hasStoredInput(request)) return;
    if ((Array.isArray(request.input) || typeof request.input === "string") && request.input.length === 0) report({ message: "input is empty", path: "input" });
  },
};

export const idsHaveTheirTypePrefix: Rule<unknown> = {
  id: "RSP-012",
  level: "error",
  requires: "an item sent with an id has the id the API gave it: a message's begins with msg, a function_call's with fc, a reasoning item's with rs",
  providerError: "Invalid 'input[371].id': '019f629b-43ee-7a82-acb1-3071dbffbdad'. Expected an ID that begins with 'msg'.",
  check(request, report) {
    for (const view of inputViewsOf(request)) {
      if (view.id === undefined || hasTypePrefix(view.kind, view.id)) continue;
      report({ message: `the id ${describeValue(view.id)} of a ${view.type} item must begin with '${ID_PREFIXES.get(view.kind)}': send the id the API gave the item, or none`, ...at(view, ".id") });
    }
  },
};

export const idsWithinLimit: Rule<unknown> = {
  id: "RSP-013",
  level: "error",
  requires: `every item id is at most ${MAX_ID_LENGTH} characters long`,
  providerError: "Invalid 'input[2].id': string too long. Expected a string with maximum length 64, but got a string with length 416 instead.",
  check(request, report) {
    for (const view of inputViewsOf(request)) {
      if (view.id !== undefined && !isWithinIdLimit(view.id)) report({ message: `the id is ${view.id.length} characters long; at most ${MAX_ID_LENGTH} are allowed`, ...at(view, ".id") });
    }
  },
};

export const idsMatchPattern: Rule<unknown> = {
  id: "RSP-014",
  level: "strict",
  requires: "an item's id, when sent, is a non-empty string of letters, digits, '_' and '-' (leave the field out rather than send an empty one)",
  // Answered by OpenAI-compatible gateways; OpenAI itself accepted the empty id in that report.
  providerError: "Invalid 'input[6].id': ''. Expected an ID that contains letters, numbers, underscores, or dashes, but this value contained additional characters.",
  check(request, report) {
    for (const view of inputViewsOf(request)) {
      const id = view.fields.id;
      if (id === undefined || id === null || matchesIdPattern(id)) continue;
      report({ message: `the id is ${describeValue(id)}; it may hold only letters, digits, '_' and '-'`, ...at(view, ".id") });
    }
  },
};
