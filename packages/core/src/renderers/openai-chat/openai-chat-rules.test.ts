import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import type { RuleLevel } from "../../spec/rule.js";
import { checkRules } from "../../validation/check-rules.js";
import { openAIChatRules } from "./openai-chat-rules.js";

const user = { role: "user", content: "Compare the two files." };
const call = (id: string, args = '{"path":"a.json"}', name = "read_file") => ({ id, type: "function", function: { name, arguments: args } });
const calling = (...ids: string[]) => ({ role: "assistant", content: null, tool_calls: ids.map((id) => call(id)) });
const tool = (id: string, content = '{"port":80}') => ({ role: "tool", tool_call_id: id, content });
const request = (...messages: unknown[]) => ({ model: "gpt-4o", messages });

interface Case {
  readonly id: string;
  readonly level: RuleLevel;
  /** The provider's error text, from reference/providers.md, when one is quoted there. */
  readonly providerError?: string;
  readonly name: string;
  readonly request: unknown;
  readonly model?: string;
  /** Where the violation is reported. */
  readonly path: string;
  /** Every rule the request breaks, when it breaks more than the one under test. */
  readonly fired?: ReadonlyArray<string>;
}

// Each rule of the table, in its order, with a minimal request that breaks it.
const cases: Case[] = [
  {
    id: "COM-001",
    level: "error",
    providerError: "The request body is not valid JSON: no low surrogate in string: line 1 column 195621 (char 195620)",
    name: "an emoji cut in half",
    request: request({ role: "user", content: "cut \uD83D" }),
    path: "messages[0].content",
  },
  { id: "COM-002", level: "strict", name: "a zero-width space as text", request: request({ role: "user", content: "\u200B" }), path: "messages[0].content", fired: ["COM-002", "OAI-012"] },
  { id: "COM-003", level: "error", name: "a NaN temperature", request: { ...request(user), temperature: Number.NaN }, path: "temperature" },
  {
    id: "OAI-001",
    level: "error",
    providerError: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    name: "no messages",
    request: request(),
    path: "messages",
  },
  { id: "OAI-002", level: "error", name: "an unknown role", request: request({ role: "bot", content: "Hello." }, user), path: "messages[0].role" },
  { id: "OAI-002", level: "error", name: "tool_calls on a user message", request: request({ ...user, tool_calls: [call("call_a")] }), path: "messages[0].tool_calls" },
  {
    id: "OAI-003",
    level: "error",
    providerError: "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
    name: "a tool message after a user message",
    request: request(user, tool("call_a")),
    path: "messages[1].role",
  },
  {
    id: "OAI-003",
    level: "error",
    providerError: "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
    name: "a tool_call_id the calls do not have",
    request: request(user, calling("call_a"), tool("call_a"), tool("call_b")),
    path: "messages[3].tool_call_id",
  },
  {
    id: "OAI-004",
    level: "error",
    providerError:
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_…",
    name: "a user message before the second result",
    request: request(user, calling("call_a", "call_b"), tool("call_a"), user, tool("call_b")),
    path: "messages[1].tool_calls[1].id",
    fired: ["OAI-004", "OAI-003"],
  },
  {
    id: "OAI-005",
    level: "error",
    providerError: "Invalid parameter: Duplicate value for 'tool_call_id' of 'call_gmd4…', in messages[7] and messages[8].",
    name: "a call answered twice",
    request: request(user, calling("call_a"), tool("call_a"), tool("call_a")),
    path: "messages[3].tool_call_id",
  },
  {
    id: "OAI-005",
    level: "error",
    providerError: "Invalid parameter: Duplicate value for 'tool_call_id' of 'call_gmd4…', in messages[7] and messages[8].",
    name: "one id twice in one message",
    request: request(user, calling("call_a", "call_a"), tool("call_a")),
    path: "messages[1].tool_calls[1].id",
  },
  {
    id: "OAI-020",
    level: "strict",
    name: "an id reused by a later assistant message",
    request: request(user, calling("call_a"), tool("call_a"), user, calling("call_a"), tool("call_a")),
    path: "messages[4].tool_calls[0].id",
  },
  {
    id: "OAI-006",
    level: "error",
    providerError: "Invalid 'messages[1].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    name: "tool_calls: []",
    request: request(user, { role: "assistant", content: "Done.", tool_calls: [] }, user),
    path: "messages[1].tool_calls",
  },
  {
    id: "OAI-007",
    level: "error",
    providerError: "Invalid value for 'content': expected a string, got null.",
    name: "null content without tool calls",
    request: request(user, { role: "assistant", content: null }, user),
    path: "messages[1].content",
  },
  {
    id: "OAI-007",
    level: "error",
    providerError: "Invalid value for 'content': expected a string, got null.",
    name: "a tool that returned None",
    request: request(user, calling("call_a"), { role: "tool", tool_call_id: "call_a" }),
    path: "messages[2].content",
  },
  {
    id: "OAI-021",
    level: "strict",
    name: 'content "" on a message that only makes calls',
    request: request(user, { ...calling("call_a"), content: "" }, tool("call_a")),
    path: "messages[1].content",
  },
  {
    id: "OAI-008",
    level: "error",
    providerError: "Invalid 'messages[1].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    name: "a name with a space",
    request: request({ ...user, name: "Jane Doe" }),
    path: "messages[0].name",
  },
  {
    id: "OAI-008",
    level: "error",
    providerError: "Invalid 'messages[1].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    name: "a dotted function name in the history",
    request: request(user, { role: "assistant", content: null, tool_calls: [call("call_a", "{}", "files.read")] }, tool("call_a")),
    path: "messages[1].tool_calls[0].function.name",
  },
  {
    id: "OAI-009",
    level: "error",
    providerError: "Invalid 'messages[10].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 53 instead.",
    name: "a Responses API id replayed",
    request: request(user, calling(`fc_${"0".repeat(50)}`), tool(`fc_${"0".repeat(50)}`)),
    path: "messages[1].tool_calls[0].id",
  },
  {
    id: "OAI-010",
    level: "error",
    providerError: "Invalid 'input[0].content': string too long. Expected a string with maximum length 10485760, …",
    name: "an 11 MB paste",
    request: request({ role: "user", content: "a".repeat(10_485_761) }),
    path: "messages[0].content",
  },
  { id: "OAI-011", level: "strict", name: "a whitespace assistant message", request: request(user, { role: "assistant", content: " \n" }, user), path: "messages[1].content" },
  {
    id: "OAI-012",
    level: "strict",
    providerError: "user message must have content",
    name: "an empty system message",
    request: request({ role: "system", content: "" }, user),
    path: "messages[0].content",
  },
  {
    id: "OAI-012",
    level: "strict",
    providerError: "user message must have content",
    name: "an empty text part next to an image",
    request: request({ role: "user", content: [{ type: "text", text: "" }, { type: "image_url", image_url: { url: "https://example.test/a.png" } }] }),
    path: "messages[0].content[0].text",
  },
  { id: "OAI-014", level: "strict", name: "an empty tool result", request: request(user, calling("call_a"), tool("call_a", "")), path: "messages[2].content" },
  {
    id: "OAI-013",
    level: "strict",
    name: "the function role",
    request: request(user, { role: "function", name: "read_file", content: "{}" }, user),
    path: "messages[1].role",
  },
  {
    id: "OAI-015",
    level: "error",
    name: "arguments as an object",
    request: request(user, { role: "assistant", content: null, tool_calls: [{ id: "call_a", type: "function", function: { name: "read_file", arguments: { path: "a.json" } } }] }, tool("call_a")),
    path: "messages[1].tool_calls[0].function.arguments",
  },
  {
    id: "OAI-015",
    level: "error",
    name: "a call without a type",
    request: request(user, { role: "assistant", content: null, tool_calls: [{ id: "call_a", function: { name: "read_file", arguments: "{}" } }] }, tool("call_a")),
    path: "messages[1].tool_calls[0].type",
  },
  {
    id: "OAI-016",
    level: "strict",
    name: "truncated JSON arguments",
    request: request(user, { role: "assistant", content: null, tool_calls: [call("call_a", '{"path":')] }, tool("call_a")),
    path: "messages[1].tool_calls[0].function.arguments",
  },
  { id: "OAI-017", level: "strict", name: "an assistant message last", request: request(user, { role: "assistant", content: "Paris." }), path: "messages[1].role" },
  { id: "OAI-018", level: "strict", name: "no user message", request: request({ role: "developer", content: "Rules." }), path: "messages", fired: ["OAI-018", "OAI-017"] },
  {
    id: "OAI-019",
    level: "error",
    providerError: "Unsupported value: 'messages[0].role' does not support 'system' with this model.",
    name: "a system prompt for o1-mini",
    request: request({ role: "system", content: "Rules." }, user),
    model: "o1-mini",
    path: "messages[0].role",
  },
  { id: "OAI-022", level: "error", name: "content: []", request: request({ role: "user", content: [] }), path: "messages[0].content" },
  {
    id: "OAI-022",
    level: "error",
    name: "an image in an assistant message",
    request: request(user, { role: "assistant", content: [{ type: "image_url", image_url: { url: "https://example.test/a.png" } }] }, user),
    path: "messages[1].content[0].type",
  },
  {
    id: "OAI-023",
    level: "error",
    providerError: "Invalid 'prompt_cache_key': string too long. Expected a string with maximum length 64, but got a string with length 72 instead.",
    name: "a prompt cache key of 72 characters",
    request: { ...request(user), prompt_cache_key: "k".repeat(72) },
    path: "prompt_cache_key",
  },
  {
    id: "OAI-023",
    level: "error",
    providerError: "Invalid 'prompt_cache_key': string too long. Expected a string with maximum length 64, but got a string with length 72 instead.",
    name: "a prompt cache key that is not a string",
    request: { ...request(user), prompt_cache_key: 42 },
    path: "prompt_cache_key",
  },
];

describe("openAIChatRules", () => {
  test("holds the common rules, then every OpenAI rule of providers.md at its level", () => {
    const table = [...new Map(cases.map((entry) => [entry.id, entry.level])).entries()];
    expect(openAIChatRules.map((rule) => [rule.id, rule.level])).toEqual(table);
  });

  test.for(cases)("$id fires on $name", ({ id, providerError, request, model, path, fired = [id] }) => {
    const violations = checkRules(openAIChatRules, request, { model });
    const rule = openAIChatRules.find((candidate) => candidate.id === id);
    expect(rule?.providerError).toBe(providerError);
    expect(violations.find((violation) => violation.rule === id)).toMatchObject({ path, ...(providerError === undefined ? {} : { providerError }) });
    expect(new Set(violations.map((violation) => violation.rule))).toEqual(new Set(fired));
  });

  test("names the message of each violation", () => {
    const [violation] = checkRules(openAIChatRules, request(user, calling("call_a", "call_b"), tool("call_a"), user));
    expect(violation).toEqual({
      rule: "OAI-004",
      level: "error",
      providerError: expect.stringContaining("did not have response messages"),
      message: "tool call 'call_b' has no tool message answering it right after messages[1]",
      path: "messages[1].tool_calls[1].id",
      messageIndex: 1,
    });
  });

  test.for([
    { name: "a complete tool loop with an image", model: "gpt-4o" },
    { name: "developer instructions for o1-mini", model: "o1-mini" },
  ])("a valid request breaks no rule: $name", ({ model }) => {
    const valid = {
      model,
      messages: [
        { role: model === "o1-mini" ? "developer" : "system", content: "Be brief." },
        user,
        { role: "assistant", content: "Reading both.", tool_calls: [call("call_a"), call("call_b", '{"path":"b.json"}')] },
        tool("call_b"),
        tool("call_a"),
        { role: "assistant", content: [{ type: "text", text: "Same port." }] },
        // A system message in the middle is accepted even by o1-mini.
        { role: "system", content: "Answer in French." },
        { role: "user", content: [{ type: "image_url", image_url: { url: "https://example.test/a.png", detail: "low" } }] },
      ],
      tools: [{ type: "function", function: { name: "read_file", parameters: { type: "object" } } }],
    };
    expect(checkRules(openAIChatRules, valid, { model })).toEqual([]);
  });

  test.for(["every-item-type", "tool-loop"])("the golden request %s breaks no rule", (name) => {
    const golden: unknown = JSON.parse(readFileSync(new URL(`__fixtures__/${name}.openai.json`, import.meta.url), "utf8"));
    expect(checkRules(openAIChatRules, golden, { model: "gpt-4o" })).toEqual([]);
  });

  test("OAI-019 is only about o1-mini's leading instructions", () => {
    const leading = request({ role: "system", content: "Rules." }, user);
    expect(checkRules(openAIChatRules, leading, { model: "gpt-4o" })).toEqual([]);
    expect(checkRules(openAIChatRules, leading, { model: "o1-mini-2024-09-12" }).map((violation) => violation.rule)).toEqual(["OAI-019"]);
    expect(checkRules(openAIChatRules, leading, { model: "o1" })).toEqual([]);
  });

  const cyclic: { messages: unknown[] } = { messages: [] };
  cyclic.messages.push({ role: "user", content: "hi", self: cyclic });
  test.for([
    { name: "undefined", request: undefined, fired: ["OAI-001"] },
    { name: "a string", request: "hello", fired: ["OAI-001"] },
    { name: "messages as an object", request: { messages: { 0: user } }, fired: ["OAI-001"] },
    { name: "messages that are not objects", request: { messages: [null, 5, "hi", [], user] }, fired: ["OAI-002"] },
    { name: "fields of the wrong types", request: { messages: [{ role: 7, content: 5n }, { role: "assistant", content: {}, tool_calls: "call_a" }, { role: "user", content: [null, { type: 1 }, { type: "text", text: 2 }], name: [] }] }, fired: ["COM-003", "OAI-002", "OAI-007", "OAI-008", "OAI-015", "OAI-022"] },
    { name: "tool calls of the wrong shape", request: { messages: [user, { role: "assistant", content: null, tool_calls: [null, { id: 5, type: "function", function: null }, { id: "", type: "custom", custom: { input: 1 } }] }, tool("call_a")] }, fired: ["OAI-003", "OAI-004", "OAI-009", "OAI-015"] },
    { name: "a cycle", request: cyclic, fired: ["COM-003"] },
  ])("never throws on a hand-made request: $name", ({ request, fired }) => {
    const violations = checkRules(openAIChatRules, request, { model: "gpt-4o" });
    expect(new Set(violations.map((violation) => violation.rule))).toEqual(new Set(fired));
  });
});
