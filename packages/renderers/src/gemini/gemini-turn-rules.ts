// Gemini rules on the order of turns, Gemini 3 thought signatures and function names
// (reference/providers.md §4, items 11 to 13).
import type { Rule } from "@ctxpipe/core";
import { isGemini3Model } from "./gemini-thought-signatures.js";
import {
  asArray,
  asRecord,
  at,
  configField,
  contentsOf,
  describeValue,
  effectiveRole,
  isFunctionResponseTurn,
  partIndexesWith,
  partsOf,
} from "./read-gemini-request.js";

const FUNCTION_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

/** The index where the current turn starts: after the last user content that is not only function responses. */
function currentTurnStart(contents: ReadonlyArray<unknown>): number {
  for (let index = contents.length - 1; index >= 0; index--) {
    const content = contents[index];
    if (effectiveRole(content) !== "user") continue;
    if (partsOf(content).some((part) => asRecord(part)?.functionResponse === undefined)) return index + 1;
  }
  return 0;
}

export const geminiTurnRules: ReadonlyArray<Rule<unknown>> = [
  {
    id: "GEM-015",
    level: "strict",
    requires: "the contents start with a user content",
    check(request, report) {
      const first = contentsOf(request)?.[0];
      if (first !== undefined && effectiveRole(first) !== "user") report({ message: `the contents start with a ${describeValue(effectiveRole(first))} content`, ...at(0, ".role") });
    },
  },
  {
    id: "GEM-016",
    level: "strict",
    requires: "the contents end with a user content",
    providerError: "Requests ending with a model turn are not supported.",
    check(request, report) {
      const contents = contentsOf(request) ?? [];
      const last = contents.at(-1);
      if (last !== undefined && effectiveRole(last) !== "user") report({ message: `the contents end with a ${describeValue(effectiveRole(last))} content`, ...at(contents.length - 1, ".role") });
    },
  },
  {
    id: "GEM-017",
    level: "strict",
    requires: "user and model contents alternate; a user content right after a function-response content is the one exception",
    check(request, report) {
      const contents = contentsOf(request) ?? [];
      for (let index = 1; index < contents.length; index++) {
        const role = effectiveRole(contents[index]);
        if (role !== effectiveRole(contents[index - 1])) continue;
        // Results and the user's next words must be separate contents (GEM-021), so this pair is expected.
        if (role === "user" && isFunctionResponseTurn(contents[index - 1]) && !isFunctionResponseTurn(contents[index])) continue;
        report({ message: `two ${describeValue(role)} contents in a row (contents[${index - 1}] and contents[${index}])`, ...at(index) });
      }
    },
  },
  {
    id: "GEM-018",
    level: "error",
    requires: "on Gemini 3, the function calls of the current turn keep their thoughtSignature",
    providerError:
      "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:Bash` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
    appliesTo: (env) => isGemini3Model(env.model),
    check(request, report) {
      const contents = contentsOf(request) ?? [];
      // The API checks the first call of each step: Gemini signs only the first of parallel calls, so a
      // response replayed as Gemini sent it passes. Earlier turns are not checked.
      for (let index = currentTurnStart(contents); index < contents.length; index++) {
        const first = partIndexesWith(contents[index], "functionCall")[0];
        if (first === undefined) continue;
        const part = asRecord(partsOf(contents[index])[first]);
        const signature = part?.thoughtSignature;
        if (typeof signature === "string" && signature.length > 0) continue;
        const name = asRecord(part?.functionCall)?.name;
        report({
          message: `function call ${describeValue(name)} in the current turn has no thoughtSignature (replay the stored signature, or "skip_thought_signature_validator" for a call that never had one)`,
          ...at(index, `.parts[${first}].thoughtSignature`),
        });
      }
    },
  },
  {
    id: "GEM-020",
    level: "strict",
    requires: "function names match ^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$",
    check(request, report) {
      const checkName = (name: unknown, where: { path: string; messageIndex?: number }) => {
        if (typeof name !== "string" || !FUNCTION_NAME.test(name)) report({ message: `function name ${describeValue(name)} does not match ^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`, ...where });
      };
      (contentsOf(request) ?? []).forEach((content, index) => {
        partsOf(content).forEach((part, partIndex) => {
          const record = asRecord(part);
          const call = asRecord(record?.functionCall);
          if (call !== undefined) checkName(call.name, at(index, `.parts[${partIndex}].functionCall.name`));
          const response = asRecord(record?.functionResponse);
          // A missing response name is GEM-011's to report.
          if (typeof response?.name === "string" && response.name.length > 0) checkName(response.name, at(index, `.parts[${partIndex}].functionResponse.name`));
        });
      });
      const tools = configField(request, "tools");
      asArray(tools?.value)?.forEach((tool, toolIndex) => {
        asArray(asRecord(tool)?.functionDeclarations)?.forEach((declaration, declarationIndex) => {
          checkName(asRecord(declaration)?.name, { path: `${tools?.path}[${toolIndex}].functionDeclarations[${declarationIndex}].name` });
        });
      });
    },
  },
];
