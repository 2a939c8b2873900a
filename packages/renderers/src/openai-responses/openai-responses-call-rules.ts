// OpenAI Responses rules on function calls and the outputs that answer them: pairing, order, call ids
// and function names (reference/providers.md §2: RSP-001…004, 015…017).
import type { Rule } from "@ctxpipe/core";
import { at, describeValue, type InputItemView, inputViewsOf, isRecord } from "./openai-responses-input-view.js";

const NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;
const MAX_CALL_ID_LENGTH = 64;
const MAX_INPUT_NAME_LENGTH = 128;

/** Whether the request continues a stored response or conversation, which may hold calls `input` does not. */
function continuesStoredState(request: unknown): boolean {
  return isRecord(request) && ((request.previous_response_id !== undefined && request.previous_response_id !== null) || (request.conversation !== undefined && request.conversation !== null));
}

/** For each call_id, the indexes of the function_call_output items that answer it, in order. */
function outputIndexes(views: ReadonlyArray<InputItemView>): Map<string, number[]> {
  const outputs = new Map<string, number[]>();
  for (const view of views) {
    if (view.kind !== "function_call_output" || view.callId === undefined) continue;
    const list = outputs.get(view.callId);
    if (list === undefined) outputs.set(view.callId, [view.index]);
    else list.push(view.index);
  }
  return outputs;
}

export const outputsAnswerEarlierCalls: Rule<unknown> = {
  id: "RSP-001",
  level: "error",
  requires: "every function_call_output answers a function_call of the same call_id earlier in input (unless previous_response_id or conversation supplies the call)",
  providerError: "No tool call found for function call output with call_id call_uelfkqtHfJDC4Btqeoozq82e.",
  check(request, report) {
    if (continuesStoredState(request)) return;
    const called = new Set<string>();
    for (const view of inputViewsOf(request)) {
      if (view.kind === "function_call" && view.callId !== undefined) called.add(view.callId);
      else if (view.kind === "function_call_output" && view.callId !== undefined && !called.has(view.callId)) {
        report({ message: `the function_call_output answers call_id ${describeValue(view.callId)}, but no function_call before it in input has that call_id`, ...at(view, ".call_id") });
      }
    }
  },
};

export const callsHaveOutputs: Rule<unknown> = {
  id: "RSP-002",
  level: "error",
  requires: "every function_call in input is answered by a function_call_output of the same call_id after it",
  providerError: "No tool output found for function call call_uK3eDRSXx9p45csFRjvXDNPq.",
  check(request, report) {
    const views = inputViewsOf(request);
    const outputs = outputIndexes(views);
    for (const view of views) {
      if (view.kind !== "function_call" || view.callId === undefined) continue;
      if (!(outputs.get(view.callId) ?? []).some((index) => index > view.index)) {
        report({ message: `function_call ${describeValue(view.callId)} (${describeValue(view.fields.name)}) has no function_call_output after it`, ...at(view, ".call_id") });
      }
    }
  },
};

export const callIdsUnique: Rule<unknown> = {
  id: "RSP-003",
  level: "error",
  requires: "no two function_call items share a call_id, and no call_id is answered by two function_call_output items",
  providerError: "Duplicate function_call_output for call_id 'terminal:0'. Each function_call must have exactly one matching function_call_output",
  check(request, report) {
    const calls = new Map<string, number>();
    const outputs = new Map<string, number>();
    for (const view of inputViewsOf(request)) {
      if (view.callId === undefined) continue;
      if (view.kind === "function_call") {
        const first = calls.get(view.callId);
        if (first === undefined) calls.set(view.callId, view.index);
        else report({ message: `call_id ${describeValue(view.callId)} is already used by the function_call at input[${first}]`, ...at(view, ".call_id") });
      } else if (view.kind === "function_call_output") {
        const first = outputs.get(view.callId);
        if (first === undefined) outputs.set(view.callId, view.index);
        else report({ message: `a second function_call_output for call_id ${describeValue(view.callId)} (the first is input[${first}])`, ...at(view, ".call_id") });
      }
    }
  },
};

export const noMessageBetweenCallAndOutput: Rule<unknown> = {
  id: "RSP-004",
  level: "strict",
  requires: "no message item (of any role) stands between a function_call and its function_call_output: every call is answered before the next user message",
  check(request, report) {
    const views = inputViewsOf(request);
    const outputs = outputIndexes(views);
    const reported = new Set<number>();
    for (const call of views) {
      if (call.kind !== "function_call" || call.callId === undefined) continue;
      const output = (outputs.get(call.callId) ?? []).find((index) => index > call.index);
      if (output === undefined || reported.has(output)) continue;
      const between = views.slice(call.index + 1, output).find((view) => view.kind === "input-message" || view.kind === "assistant-message");
      if (between === undefined) continue;
      reported.add(output);
      const role = describeValue(between.fields.role);
      report({ message: `a ${role} message (input[${between.index}]) stands between function_call ${describeValue(call.callId)} (input[${call.index}]) and this output`, ...at(views[output]!) });
    }
  },
};

export const callIdsWithinLimit: Rule<unknown> = {
  id: "RSP-015",
  level: "error",
  requires: `every call_id of a function_call or function_call_output is a non-empty string of at most ${MAX_CALL_ID_LENGTH} characters`,
  providerError: "Invalid 'input[95].call_id': string too long. Expected a string with maximum length 64, but got a string with length 116 instead.",
  check(request, report) {
    for (const view of inputViewsOf(request)) {
      if ((view.kind !== "function_call" && view.kind !== "function_call_output") || view.callId === undefined) continue;
      if (view.callId === "") report({ message: "the call_id is empty", ...at(view, ".call_id") });
      else if (view.callId.length > MAX_CALL_ID_LENGTH) report({ message: `the call_id is ${view.callId.length} characters long; at most ${MAX_CALL_ID_LENGTH} are allowed`, ...at(view, ".call_id") });
    }
  },
};

export const callNamesMatchPattern: Rule<unknown> = {
  id: "RSP-016",
  level: "error",
  requires: "every function_call's name matches ^[a-zA-Z0-9_-]+$",
  providerError: "Invalid 'input[222].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'",
  check(request, report) {
    for (const view of inputViewsOf(request)) {
      const name = view.fields.name;
      if (view.kind !== "function_call" || typeof name !== "string" || NAME_PATTERN.test(name)) continue;
      report({ message: `the function name is ${describeValue(name)}; it may hold only letters, digits, '_' and '-'`, ...at(view, ".name") });
    }
  },
};

export const callNamesWithinLimit: Rule<unknown> = {
  id: "RSP-017",
  level: "error",
  requires: `every function_call's name is at most ${MAX_INPUT_NAME_LENGTH} characters long`,
  providerError: "Invalid 'input[10].name': string too long. Expected a string with maximum length 128, but got a string with length 134 instead.",
  check(request, report) {
    for (const view of inputViewsOf(request)) {
      const name = view.fields.name;
      if (view.kind !== "function_call" || typeof name !== "string" || name.length <= MAX_INPUT_NAME_LENGTH) continue;
      report({ message: `the function name is ${name.length} characters long; at most ${MAX_INPUT_NAME_LENGTH} are allowed`, ...at(view, ".name") });
    }
  },
};
