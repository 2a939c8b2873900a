import { checkRules, commonRequestRules } from "@ctxpipe/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { geminiRules } from "./gemini-rules.js";

const text = (value: string) => ({ text: value });
const call = (name: string, id?: string, extra: object = {}) => ({ functionCall: { ...(id === undefined ? {} : { id }), name, args: {} }, ...extra });
const response = (name: string, id?: string) => ({ functionResponse: { ...(id === undefined ? {} : { id }), name, response: { output: "ok" } } });
const user = (...parts: unknown[]) => ({ role: "user", parts });
const model = (...parts: unknown[]) => ({ role: "model", parts });
const request = (...contents: unknown[]) => ({ model: "gemini-3-pro-preview", contents });

/** A request that breaks no rule: text, a signed parallel call (Gemini signs only the first), results, text. */
const valid = {
  model: "gemini-3-pro-preview",
  contents: [
    user(text("Compare a and b.")),
    model(text("Reading both."), call("read_file", "c1", { thoughtSignature: "c2ln" }), call("read_file", "c2")),
    user(response("read_file", "c1"), response("read_file", "c2")),
    user(text("Quickly, please.")),
  ],
  config: { systemInstruction: { parts: [text("Be brief.")] }, tools: [{ functionDeclarations: [{ name: "read_file", parametersJsonSchema: { type: "object" } }] }] },
};

const THOUGHT_SIGNATURE_ERROR =
  "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:Bash` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.";
const EMPTY_TEXT_ERROR =
  "Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini";

/** For every GEM rule, a request that breaks it, where the rule must point, and the provider's error text. */
const cases: Array<{ rule: string; request: unknown; path: string; messageIndex?: number; providerError?: string }> = [
  { rule: "GEM-001", request: request(), path: "contents", providerError: "contents is not specified" },
  { rule: "GEM-012", request: { ...request(user(text("Hi."))), config: { systemInstruction: { parts: [] } } }, path: "config.systemInstruction.parts" },
  { rule: "GEM-002", request: request({ role: "system", parts: [text("Rules.")] }, user(text("Hi."))), path: "contents[0].role", messageIndex: 0, providerError: "Please use a valid role: user, model." },
  { rule: "GEM-019", request: request({ parts: [text("Hi.")] }), path: "contents[0].role", messageIndex: 0, providerError: "Please use a valid role: user, model." },
  {
    rule: "GEM-003",
    request: request(user(text("Hi.")), model(), user(text("Again."))),
    path: "contents[1].parts",
    messageIndex: 1,
    providerError: "* GenerateContentRequest.contents[1].parts: contents.parts must not be empty.",
  },
  {
    rule: "GEM-004",
    request: request(user({ text: "Look.", inlineData: { mimeType: "image/png", data: "AAAA" } })),
    path: "contents[0].parts[0]",
    messageIndex: 0,
    providerError: "* GenerateContentRequest.contents[33].parts[0].data: required oneof field 'data' must have one initialized field",
  },
  { rule: "GEM-005", request: request(user(text("Hi."), text(""))), path: "contents[0].parts[1].text", messageIndex: 0, providerError: EMPTY_TEXT_ERROR },
  { rule: "GEM-013", request: request(user(text(" \n "))), path: "contents[0].parts[0].text", messageIndex: 0 },
  {
    rule: "GEM-006",
    request: request(user(text("Hi.")), model(text("Let me see.")), model(call("look")), user(response("look"))),
    path: "contents[2]",
    messageIndex: 2,
    providerError: "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
  },
  {
    rule: "GEM-007",
    request: request(user(text("Hi.")), user(response("look"))),
    path: "contents[1]",
    messageIndex: 1,
    providerError: "Please ensure that function response turn comes immediately after a function call turn.",
  },
  {
    rule: "GEM-008",
    request: request(user(text("Hi.")), model(call("a", "c1"), call("b", "c2")), user(response("a", "c1"))),
    path: "contents[2]",
    messageIndex: 2,
    providerError: "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
  },
  { rule: "GEM-014", request: request(user(text("Hi.")), model(call("a", "c1")), user(response("b", "c1"))), path: "contents[2].parts[0].functionResponse.name", messageIndex: 2 },
  { rule: "GEM-009", request: request(user(text("Hi.")), user(call("a"))), path: "contents[1].parts[0].functionCall", messageIndex: 1 },
  {
    rule: "GEM-010",
    request: request(user(text("Hi.")), model({ functionCall: { name: "a", args: '{"x":1}' } }), user(response("a"))),
    path: "contents[1].parts[0].functionCall.args",
    messageIndex: 1,
  },
  {
    rule: "GEM-011",
    request: request(user(text("Hi.")), model(call("a")), user({ functionResponse: { name: "a", response: "plain text" } })),
    path: "contents[2].parts[0].functionResponse.response",
    messageIndex: 2,
  },
  {
    rule: "GEM-021",
    request: request(user(text("Hi.")), model(call("a")), user(response("a"), text("And then?"))),
    path: "contents[2].parts[1]",
    messageIndex: 2,
    providerError: "Requests ending with a model turn are not supported.",
  },
  { rule: "GEM-015", request: request(model(text("Hello.")), user(text("Hi."))), path: "contents[0].role", messageIndex: 0 },
  { rule: "GEM-016", request: request(user(text("Hi.")), model(text("Hello."))), path: "contents[1].role", messageIndex: 1, providerError: "Requests ending with a model turn are not supported." },
  { rule: "GEM-017", request: request(user(text("Hi.")), user(text("Again."))), path: "contents[1]", messageIndex: 1 },
  {
    rule: "GEM-018",
    request: request(user(text("Hi.")), model(call("Bash", "c1")), user(response("Bash", "c1"))),
    path: "contents[1].parts[0].thoughtSignature",
    messageIndex: 1,
    providerError: THOUGHT_SIGNATURE_ERROR,
  },
  {
    rule: "GEM-022",
    request: { ...valid, config: { ...valid.config, cachedContent: "cachedContents/abc123" } },
    path: "config.systemInstruction",
    providerError:
      "CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config. Proposed fix: move those values to CachedContent from GenerateContent request.",
  },
  { rule: "GEM-020", request: request(user(text("Hi.")), model(call("read file", undefined, { thoughtSignature: "s" })), user(response("read file"))), path: "contents[1].parts[0].functionCall.name", messageIndex: 1 },
];

describe("geminiRules", () => {
  test("holds the common rules, then every GEM rule of providers.md §4 in order, at its level", () => {
    expect(geminiRules.slice(0, commonRequestRules.length)).toEqual(commonRequestRules);
    expect(geminiRules.slice(commonRequestRules.length).map((rule) => `${rule.id} ${rule.level}`)).toEqual([
      "GEM-001 error",
      "GEM-012 error",
      "GEM-002 error",
      "GEM-019 strict",
      "GEM-003 error",
      "GEM-004 error",
      "GEM-005 error",
      "GEM-013 strict",
      "GEM-006 error",
      "GEM-007 error",
      "GEM-008 error",
      "GEM-014 strict",
      "GEM-009 error",
      "GEM-010 error",
      "GEM-011 error",
      "GEM-021 error",
      "GEM-015 strict",
      "GEM-016 strict",
      "GEM-017 strict",
      "GEM-018 error",
      "GEM-020 strict",
      "GEM-022 error",
    ]);
    expect(cases.map((testCase) => testCase.rule).sort()).toEqual(geminiRules.slice(commonRequestRules.length).map((rule) => rule.id).sort());
  });

  test("a valid request breaks no rule", () => {
    expect(checkRules(geminiRules, valid, { model: "gemini-3-pro-preview" })).toEqual([]);
  });

  test.for(cases)("$rule fires at $path", ({ rule, request: broken, path, messageIndex, providerError }) => {
    const violations = checkRules(geminiRules, broken, { model: "gemini-3-pro-preview" }).filter((violation) => violation.rule === rule);
    const violation = violations.find((candidate) => candidate.path === path);
    if (violation === undefined) throw new Error(`${rule} did not fire at ${path}: ${JSON.stringify(violations)}`);
    expect(violation.messageIndex).toBe(messageIndex);
    expect(violation.providerError).toBe(providerError);
    expect(violation.providerError).toBe(geminiRules.find((candidate) => candidate.id === rule)?.providerError);
  });

  test("GEM-022 names every field the cached content should hold, and lets a request with the cache alone pass", () => {
    const gem22 = (config: object) => checkRules(geminiRules, { ...valid, config }).filter((violation) => violation.rule === "GEM-022");
    const { systemInstruction, tools } = valid.config;
    expect(gem22({ cachedContent: "cachedContents/abc123", systemInstruction, tools, toolConfig: { functionCallingConfig: { mode: "AUTO" } } }).map((violation) => violation.path)).toEqual([
      "config.systemInstruction",
      "config.tools",
      "config.toolConfig",
    ]);
    expect(gem22({ cachedContent: "cachedContents/abc123" })).toEqual([]);
    expect(gem22({ cachedContent: "cachedContents/abc123", tools: [] })).toEqual([]);
    expect(gem22({ systemInstruction, tools })).toEqual([]);
    expect(gem22({ cachedContent: "" }).map((violation) => violation.path)).toEqual(["config.cachedContent"]);
  });

  test("GEM-018 applies to Gemini 3 models only, and only to the current turn", () => {
    const unsigned = request(user(text("Hi.")), model(call("a", "c1")), user(response("a", "c1")), user(text("Next.")), model(call("b", "c2", { thoughtSignature: "s" })), user(response("b", "c2")));
    const rule18 = (model: string | undefined) => checkRules(geminiRules, unsigned, { model }).filter((violation) => violation.rule === "GEM-018");
    expect(rule18("gemini-3-pro-preview")).toEqual([]);
    expect(rule18("gemini-2.5-flash")).toEqual([]);
    expect(rule18(undefined)).toEqual([]);
  });

  test("GEM-017 lets the user's words follow a function-response content, but not two text contents", () => {
    const gem17 = (broken: unknown) => checkRules(geminiRules, broken).filter((violation) => violation.rule === "GEM-017");
    expect(gem17(request(user(text("Hi.")), model(call("a")), user(response("a")), user(text("Then?"))))).toEqual([]);
    expect(gem17(request(user(text("Hi.")), model(call("a")), user(response("a")), user(text("Then?")), user(text("Well?"))))).toHaveLength(1);
  });

  test.for([
    { what: "a call turn left unanswered at the end", broken: request(user(text("Hi.")), model(call("a"))), path: "contents[1]" },
    { what: "a call turn followed by text", broken: request(user(text("Hi.")), model(call("a")), user(text("Never mind."))), path: "contents[2]" },
  ])("GEM-008 also flags $what", ({ broken, path }) => {
    expect(checkRules(geminiRules, broken).filter((violation) => violation.rule === "GEM-008").map((violation) => violation.path)).toEqual([path]);
  });

  test.for([
    { what: "a response without a name", part: { functionResponse: { id: "c1", response: { output: "ok" } } }, path: "contents[2].parts[0].functionResponse.name" },
    { what: "a response id that answers no call", part: response("a", "c9"), path: "contents[2].parts[0].functionResponse.id" },
  ])("$what is reported", ({ part, path }) => {
    const violations = checkRules(geminiRules, request(user(text("Hi.")), model(call("a", "c1", { thoughtSignature: "s" })), user(part)));
    expect(violations.map((violation) => violation.path)).toContain(path);
  });

  test("tool declarations with names Gemini refuses are reported (GEM-020)", () => {
    const broken = { ...request(user(text("Hi."))), config: { tools: [{ functionDeclarations: [{ name: "1st_tool" }] }] } };
    expect(checkRules(geminiRules, broken)).toEqual([
      expect.objectContaining({ rule: "GEM-020", path: "config.tools[0].functionDeclarations[0].name" }),
    ]);
  });

  test("the REST body (systemInstruction at the top level) is checked too", () => {
    const rest = { contents: [user(text("Hi."))], systemInstruction: { parts: [text("")] } };
    expect(checkRules(geminiRules, rest).map((violation) => `${violation.rule} ${violation.path}`)).toEqual(["GEM-005 systemInstruction.parts[0].text"]);
  });

  test("never throws, whatever it is given", () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBoxedValues: true }), (value) => {
        checkRules(geminiRules, value, { model: "gemini-3-pro-preview" });
        checkRules(geminiRules, { contents: [value, { role: "model", parts: [value] }], config: { systemInstruction: value, tools: [value] } }, { model: "gemini-3-pro-preview" });
      }),
    );
  });
});
