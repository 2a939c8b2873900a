// OpenAI Responses rules on text: the per-string limit and blank messages and outputs
// (reference/providers.md §2: RSP-005, 006).
import { isBlank, PROVIDER_MAX_STRING_LENGTH, type Rule, visitJson } from "@ctxpipe/core";
import { at, type InputItemView, inputViewsOf } from "./openai-responses-input-view.js";

/**
 * Where a message's content or an output is blank: [field] when nothing in it is readable (a blank
 * string, an empty list, only blank text parts), else the blank text parts. Fields of the wrong type
 * are RSP-010's.
 */
function blankSpots(view: InputItemView, field: "content" | "output"): string[] {
  const value = view.fields[field];
  if (typeof value === "string") return isBlank(value) ? [`.${field}`] : [];
  if (!Array.isArray(value)) return [];
  const blank: string[] = [];
  (value as unknown[]).forEach((part, position) => {
    if (typeof part !== "object" || part === null) return;
    const { type } = part as { type?: unknown };
    const key = type === "input_text" || type === "output_text" ? "text" : type === "refusal" ? "refusal" : undefined;
    const text = key === undefined ? undefined : (part as Record<string, unknown>)[key];
    if (typeof text === "string" && isBlank(text)) blank.push(`.${field}[${position}].${key}`);
  });
  return blank.length === value.length ? [`.${field}`] : blank;
}

export const stringsWithinLimit: Rule<unknown> = {
  id: "RSP-005",
  level: "error",
  requires: `no string is longer than ${PROVIDER_MAX_STRING_LENGTH} characters`,
  providerError: "Invalid 'input[0].content': string too long. Expected a string with maximum length 10485760, but got a string with length 62114761 instead.",
  check(request, report) {
    visitJson(request, {
      value(value, _key, path) {
        if (typeof value !== "string" || value.length <= PROVIDER_MAX_STRING_LENGTH) return;
        const where = path();
        const item = /^input\[(\d+)\]/.exec(where);
        report({ message: `the string is ${value.length} characters long; at most ${PROVIDER_MAX_STRING_LENGTH} are allowed`, path: where, ...(item === null ? {} : { messageIndex: Number(item[1]) }) });
      },
    });
  },
};

export const noBlankMessagesOrOutputs: Rule<unknown> = {
  id: "RSP-006",
  level: "strict",
  requires: "no message and no function_call_output is empty or only whitespace, nor holds a blank text part",
  check(request, report) {
    for (const view of inputViewsOf(request)) {
      const field = view.kind === "function_call_output" ? "output" : view.kind === "input-message" || view.kind === "assistant-message" ? "content" : undefined;
      if (field === undefined) continue;
      for (const spot of blankSpots(view, field)) {
        const what = spot === `.${field}` ? (field === "output" ? "the function output is empty or only whitespace" : `the ${String(view.fields.role)} message is empty or only whitespace`) : "the text part is empty or only whitespace";
        report({ message: `${what}; OpenAI may take it, but other servers of this API and other providers reject it`, ...at(view, spot) });
      }
    }
  },
};
