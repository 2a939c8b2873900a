// Gemini rules on the shape of each content and part (reference/providers.md §4, items 1 to 5).
import type { Rule, RuleViolationInput } from "@ctxpipe/core";
import { asArray, asRecord, at, configField, contentsOf, describeValue, forEachContent, partsOf } from "./read-gemini-request.js";

/** The fields of Part's `data` oneof; thought, thoughtSignature and the metadata fields are not data. */
const DATA_FIELDS = ["text", "inlineData", "fileData", "functionCall", "functionResponse", "executableCode", "codeExecutionResult", "toolCall", "toolResponse"];

/** Every text part, of the contents and of the system instruction, with its path. */
function forEachText(request: unknown, visit: (text: string, where: { path: string; messageIndex?: number }) => void): void {
  forEachContent(request, (content, index) => {
    partsOf(content).forEach((part, partIndex) => {
      const text = asRecord(part)?.text;
      if (typeof text === "string") visit(text, at(index, `.parts[${partIndex}].text`));
    });
  });
  const system = configField(request, "systemInstruction");
  asArray(asRecord(system?.value)?.parts)?.forEach((part, partIndex) => {
    const text = asRecord(part)?.text;
    if (typeof text === "string") visit(text, { path: `${system?.path}.parts[${partIndex}].text` });
  });
}

function checkSystemInstruction(value: unknown, path: string, report: (violation: RuleViolationInput) => void): void {
  if (typeof value === "string") {
    // The SDK turns a string into one text part.
    if (value.length === 0) report({ message: "systemInstruction is an empty string", path });
    return;
  }
  const parts = asArray(asRecord(value)?.parts);
  if (parts === undefined || parts.length === 0) {
    report({ message: "systemInstruction has no parts: put the system prompt in a text part, or leave systemInstruction out", path: `${path}.parts` });
    return;
  }
  parts.forEach((part, index) => {
    if (typeof asRecord(part)?.text !== "string") report({ message: "a systemInstruction part must be a text part", path: `${path}.parts[${index}]` });
  });
}

export const geminiContentRules: ReadonlyArray<Rule<unknown>> = [
  {
    id: "GEM-001",
    level: "error",
    requires: "contents is a non-empty array (the system prompt goes in systemInstruction, not in contents)",
    providerError: "contents is not specified",
    check(request, report) {
      const contents = contentsOf(request);
      if (contents === undefined) report({ message: `contents must be an array, got ${describeValue(asRecord(request)?.contents)}`, path: "contents" });
      else if (contents.length === 0) report({ message: "contents is empty", path: "contents" });
    },
  },
  {
    id: "GEM-012",
    level: "error",
    requires: "systemInstruction, when present, is made of text parts",
    check(request, report) {
      const system = configField(request, "systemInstruction");
      if (system !== undefined) checkSystemInstruction(system.value, system.path, report);
    },
  },
  {
    id: "GEM-002",
    level: "error",
    requires: 'the role of a content is "user" or "model"',
    providerError: "Please use a valid role: user, model.",
    check(request, report) {
      forEachContent(request, (content, index) => {
        const role = asRecord(content)?.role;
        if (role !== undefined && role !== "user" && role !== "model") report({ message: `role ${describeValue(role)} is not "user" or "model"`, ...at(index, ".role") });
      });
    },
  },
  {
    id: "GEM-019",
    level: "strict",
    requires: "every content sets its role (some backends reject a content without one)",
    providerError: "Please use a valid role: user, model.",
    check(request, report) {
      forEachContent(request, (content, index) => {
        if (asRecord(content)?.role === undefined) report({ message: "the content has no role", ...at(index, ".role") });
      });
    },
  },
  {
    id: "GEM-003",
    level: "error",
    requires: "every content has at least one part",
    providerError: "* GenerateContentRequest.contents[1].parts: contents.parts must not be empty.",
    check(request, report) {
      forEachContent(request, (content, index) => {
        const parts = asArray(asRecord(content)?.parts);
        if (parts === undefined || parts.length === 0) report({ message: parts === undefined ? "the content has no parts array" : "parts is empty", ...at(index, ".parts") });
      });
    },
  },
  {
    id: "GEM-004",
    level: "error",
    requires: "every part sets exactly one data field (text, inlineData, fileData, functionCall, functionResponse…)",
    providerError: "* GenerateContentRequest.contents[33].parts[0].data: required oneof field 'data' must have one initialized field",
    check(request, report) {
      forEachContent(request, (content, index) => {
        partsOf(content).forEach((part, partIndex) => {
          const record = asRecord(part);
          const set = DATA_FIELDS.filter((field) => record?.[field] !== undefined);
          if (set.length === 1) return;
          const message = record === undefined ? `the part is ${describeValue(part)}, not an object` : set.length === 0 ? "the part sets no data field" : `the part sets ${set.join(" and ")}`;
          report({ message, ...at(index, `.parts[${partIndex}]`) });
        });
      });
    },
  },
  {
    id: "GEM-005",
    level: "error",
    requires: "no text part is empty",
    providerError:
      "Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini",
    check(request, report) {
      forEachText(request, (text, where) => {
        if (text.length === 0) report({ message: "the text part is empty", ...where });
      });
    },
  },
  {
    id: "GEM-013",
    level: "strict",
    requires: "no text part is only whitespace",
    check(request, report) {
      forEachText(request, (text, where) => {
        if (text.length > 0 && text.trim().length === 0) report({ message: "the text part is only whitespace", ...where });
      });
    },
  },
];
