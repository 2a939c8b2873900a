// Gemini rules on function calls and responses (reference/providers.md §4, items 6 to 10): where the
// turns go, how many responses answer a call turn, and what calls and responses hold.
import type { Rule } from "@ctxpipe/core";
import {
  asRecord,
  at,
  contentsOf,
  describeValue,
  effectiveRole,
  forEachContent,
  isFunctionCallTurn,
  isFunctionResponseTurn,
  partIndexesWith,
  partsOf,
} from "./read-gemini-request.js";

/** The functionCall or functionResponse objects of a content, with their part index. */
function fieldsOf(content: unknown, field: "functionCall" | "functionResponse"): Array<{ index: number; value: Record<string, unknown> | undefined }> {
  const parts = partsOf(content);
  return partIndexesWith(content, field).map((index) => ({ index, value: asRecord(asRecord(parts[index])?.[field]) }));
}

export const geminiFunctionRules: ReadonlyArray<Rule<unknown>> = [
  {
    id: "GEM-006",
    level: "error",
    requires: "a function-call turn comes directly after a user turn or a function-response turn (so contents never start with one)",
    providerError: "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
    check(request, report) {
      const contents = contentsOf(request) ?? [];
      contents.forEach((content, index) => {
        if (!isFunctionCallTurn(content)) return;
        if (index === 0) report({ message: "the contents start with a function-call turn", ...at(index) });
        else if (effectiveRole(contents[index - 1]) !== "user") report({ message: `the function-call turn follows a ${describeValue(effectiveRole(contents[index - 1]))} turn, not a user turn`, ...at(index) });
      });
    },
  },
  {
    id: "GEM-007",
    level: "error",
    requires: "a function-response turn comes directly after a function-call turn",
    providerError: "Please ensure that function response turn comes immediately after a function call turn.",
    check(request, report) {
      const contents = contentsOf(request) ?? [];
      contents.forEach((content, index) => {
        if (!isFunctionResponseTurn(content)) return;
        if (index === 0) report({ message: "the contents start with a function-response turn", ...at(index) });
        else if (!isFunctionCallTurn(contents[index - 1])) report({ message: `contents[${index - 1}], before this function-response turn, makes no function call`, ...at(index) });
      });
    },
  },
  {
    id: "GEM-008",
    level: "error",
    requires: "the turn after a function-call turn holds as many functionResponse parts as it has functionCall parts",
    providerError: "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
    check(request, report) {
      const contents = contentsOf(request) ?? [];
      contents.forEach((content, index) => {
        const calls = partIndexesWith(content, "functionCall").length;
        if (calls === 0) return;
        if (index + 1 >= contents.length) {
          report({ message: `the function-call turn is the last content: its ${calls} call(s) have no responses`, ...at(index) });
          return;
        }
        const responses = partIndexesWith(contents[index + 1], "functionResponse").length;
        if (responses === calls) return;
        const message =
          responses === 0
            ? `the function-call turn at contents[${index}] is followed by a content with no function responses`
            : `contents[${index}] makes ${calls} function call(s) but this turn holds ${responses} function response(s)`;
        report({ message, ...at(index + 1) });
      });
    },
  },
  {
    id: "GEM-014",
    level: "strict",
    requires: "each functionResponse carries the id and the name of the functionCall it answers",
    check(request, report) {
      const contents = contentsOf(request) ?? [];
      contents.forEach((content, index) => {
        const calls = fieldsOf(content, "functionCall").map((call) => call.value);
        if (calls.length === 0 || index + 1 >= contents.length) return;
        const callsHaveIds = calls.some((call) => typeof call?.id === "string");
        fieldsOf(contents[index + 1], "functionResponse").forEach((response, position) => {
          const path = `.parts[${response.index}].functionResponse`;
          const id = response.value?.id;
          let call: Record<string, unknown> | undefined;
          if (typeof id === "string") {
            call = calls.find((candidate) => candidate?.id === id);
            if (call === undefined) report({ message: `functionResponse id ${JSON.stringify(id)} matches no functionCall of contents[${index}]`, ...at(index + 1, `${path}.id`) });
          } else if (callsHaveIds) {
            report({ message: `the functionResponse has no id, but the calls of contents[${index}] have ids`, ...at(index + 1, `${path}.id`) });
          } else {
            call = calls[position];
          }
          const name = response.value?.name;
          if (call !== undefined && call.name !== name) {
            report({ message: `functionResponse name ${describeValue(name)} differs from the name of its call, ${describeValue(call.name)}`, ...at(index + 1, `${path}.name`) });
          }
        });
      });
    },
  },
  {
    id: "GEM-009",
    level: "error",
    requires: 'functionCall parts appear only in "model" contents, functionResponse parts only in "user" contents',
    check(request, report) {
      forEachContent(request, (content, index) => {
        const role = effectiveRole(content);
        if (role !== "model") {
          for (const call of fieldsOf(content, "functionCall")) report({ message: `a functionCall in a ${describeValue(role)} content`, ...at(index, `.parts[${call.index}].functionCall`) });
        }
        if (role !== "user") {
          for (const response of fieldsOf(content, "functionResponse")) {
            report({ message: `a functionResponse in a ${describeValue(role)} content (tool responses go in user contents)`, ...at(index, `.parts[${response.index}].functionResponse`) });
          }
        }
      });
    },
  },
  {
    id: "GEM-010",
    level: "error",
    requires: "functionCall is an object whose args, when present, is a JSON object",
    check(request, report) {
      forEachContent(request, (content, index) => {
        const parts = partsOf(content);
        for (const call of fieldsOf(content, "functionCall")) {
          const path = `.parts[${call.index}].functionCall`;
          if (call.value === undefined) report({ message: `functionCall is ${describeValue(asRecord(parts[call.index])?.functionCall)}, not an object`, ...at(index, path) });
          else if (call.value.args !== undefined && asRecord(call.value.args) === undefined) {
            report({ message: `functionCall.args is ${describeValue(call.value.args)}, not an object`, ...at(index, `${path}.args`) });
          }
        }
      });
    },
  },
  {
    id: "GEM-011",
    level: "error",
    requires: "functionResponse has a name and a response that is a JSON object ({ output } or { error })",
    check(request, report) {
      forEachContent(request, (content, index) => {
        const parts = partsOf(content);
        for (const response of fieldsOf(content, "functionResponse")) {
          const path = `.parts[${response.index}].functionResponse`;
          if (response.value === undefined) {
            report({ message: `functionResponse is ${describeValue(asRecord(parts[response.index])?.functionResponse)}, not an object`, ...at(index, path) });
            continue;
          }
          const { name, response: body } = response.value;
          if (typeof name !== "string" || name.length === 0) report({ message: `functionResponse.name is required, got ${describeValue(name)}`, ...at(index, `${path}.name`) });
          if (asRecord(body) === undefined) report({ message: `functionResponse.response must be an object (wrap text as { output: "…" }), got ${describeValue(body)}`, ...at(index, `${path}.response`) });
        }
      });
    },
  },
  {
    id: "GEM-021",
    level: "error",
    requires: "a content with functionResponse parts holds nothing else (text or media for that turn go in a separate user content after it)",
    providerError: "Requests ending with a model turn are not supported.",
    check(request, report) {
      forEachContent(request, (content, index) => {
        if (!isFunctionResponseTurn(content)) return;
        partsOf(content).forEach((part, partIndex) => {
          if (asRecord(part)?.functionResponse === undefined) report({ message: "the function-response content also holds a part that is not a functionResponse", ...at(index, `.parts[${partIndex}]`) });
        });
      });
    },
  },
];
