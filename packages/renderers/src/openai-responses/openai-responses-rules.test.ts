import { checkRules, commonRequestRules, type RuleLevel } from "@ctxpipe/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { openAIResponsesRules } from "./openai-responses-rules.js";

type Item = { [key: string]: unknown };
type Request = { [key: string]: unknown; input: Item[] };

const user = (content: unknown = "Read a.ts and b.ts."): Item => ({ type: "message", role: "user", content });
const reasoning = (id?: string, fields: Item = {}): Item => ({ type: "reasoning", ...(id === undefined ? {} : { id }), summary: [{ type: "summary_text", text: "Read both files." }], encrypted_content: "gAAAAB", ...fields });
const call = (callId: string, id?: string, name = "read_file"): Item => ({ type: "function_call", ...(id === undefined ? {} : { id }), call_id: callId, name, arguments: '{"path":"a.ts"}' });
const output = (callId: string, value: unknown = "export {}"): Item => ({ type: "function_call_output", call_id: callId, output: value });
const answer = (text: string, id?: string): Item =>
  id === undefined ? { type: "message", role: "assistant", content: text } : { type: "message", role: "assistant", id, status: "completed", content: [{ type: "output_text", text, annotations: [] }] };

/**
 * A request that breaks no rule: instructions, tools, a reasoning turn with parallel calls sent with
 * their ids, an answer with its id, an image, a plain assistant message, a built-in tool call after
 * reasoning, a developer message and a message given by its role alone.
 */
function valid(): Request {
  return {
    model: "gpt-5",
    instructions: "Be brief.",
    tools: [{ type: "function", name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } }, strict: false }, { type: "web_search" }],
    max_output_tokens: 1024,
    prompt_cache_key: "conversation-42",
    input: [
      user(), // 0
      reasoning("rs_1"), // 1
      call("call_1", "fc_1"), // 2
      call("call_2", "fc_2"), // 3
      output("call_1"), // 4
      output("call_2", [{ type: "input_text", text: "export const b = 1;" }]), // 5
      reasoning("rs_2"), // 6
      answer("a.ts is empty; b.ts exports b.", "msg_1"), // 7
      user([{ type: "input_text", text: "And this?" }, { type: "input_image", detail: "auto", image_url: "https://example.test/a.png" }]), // 8
      answer("A diagram of the build."), // 9
      user("Search for its source."), // 10
      reasoning("rs_3"), // 11
      { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "build diagram" } }, // 12
      answer("It comes from the handbook.", "msg_2"), // 13
      { type: "message", role: "developer", content: "Answer in French from now on." }, // 14
      { role: "user", content: "Merci." }, // 15
    ],
  };
}

/** The valid request with one change. */
function breaking(change: (request: Request) => void): Request {
  const request = valid();
  change(request);
  return request;
}

interface Case {
  readonly name: string;
  readonly level: RuleLevel;
  /** The provider's own error text, as users have posted it, when one is known. */
  readonly providerError: string | undefined;
  readonly request: unknown;
  /** Every violation expected: the rule under test first, then any other the same mistake breaks. */
  readonly fires: ReadonlyArray<{ rule: string; path: string; messageIndex?: number }>;
}

const NO_CALL = "No tool call found for function call output with call_id call_uelfkqtHfJDC4Btqeoozq82e.";
const NO_OUTPUT = "No tool output found for function call call_uK3eDRSXx9p45csFRjvXDNPq.";
const DUPLICATE = "Duplicate function_call_output for call_id 'terminal:0'. Each function_call must have exactly one matching function_call_output";
const NO_FOLLOWING_ITEM = "Item 'rs_06a20bd006d58dde00692a12986174819ea1cd9ea5b9ca4946' of type 'reasoning' was provided without its required following item.";
const NO_REASONING =
  "Item 'msg_05636c497febfefa0069a89e68230c8197af35ec2530228f39' of type 'message' was provided without its required 'reasoning' item: 'rs_05636c497febfefa0069a89e65bf4081979531cf3990dda8e8'.";
const BAD_PREFIX = "Invalid 'input[371].id': '019f629b-43ee-7a82-acb1-3071dbffbdad'. Expected an ID that begins with 'msg'.";
const CALL_ID_TOO_LONG = "Invalid 'input[95].call_id': string too long. Expected a string with maximum length 64, but got a string with length 116 instead.";
const TOOL_NAME_PATTERN = "Invalid 'tools[16].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.";

const cases: Case[] = [
  {
    name: "COM-001 a lone surrogate names its input item",
    level: "error",
    providerError: "The request body is not valid JSON: no low surrogate in string: line 1 column 195621 (char 195620)",
    request: breaking((request) => {
      request.input[10] = user("cut \uD83D");
    }),
    fires: [{ rule: "COM-001", path: "input[10].content", messageIndex: 10 }],
  },
  {
    name: "COM-002 text of a zero-width space",
    level: "strict",
    providerError: undefined,
    request: breaking((request) => {
      request.input[10] = user("\u200B");
    }),
    fires: [
      { rule: "COM-002", path: "input[10].content", messageIndex: 10 },
      { rule: "RSP-006", path: "input[10].content", messageIndex: 10 },
    ],
  },
  {
    name: "COM-003 a NaN temperature",
    level: "error",
    providerError: undefined,
    request: breaking((request) => {
      request.temperature = Number.NaN;
    }),
    fires: [{ rule: "COM-003", path: "temperature" }],
  },
  {
    name: "RSP-010 input must be a string or an array",
    level: "error",
    providerError: undefined,
    request: { model: "gpt-5", input: { role: "user", content: "Hi." } },
    fires: [{ rule: "RSP-010", path: "input" }],
  },
  {
    name: "RSP-010 input must be there when nothing stored stands in for it",
    level: "error",
    providerError: undefined,
    request: { model: "gpt-5", instructions: "Be brief." },
    fires: [{ rule: "RSP-010", path: "input" }],
  },
  {
    name: "RSP-010 a message's role",
    level: "error",
    providerError: undefined,
    request: breaking((request) => {
      request.input[10] = { type: "message", role: "tool", content: "42" };
    }),
    fires: [{ rule: "RSP-010", path: "input[10].role", messageIndex: 10 }],
  },
  {
    name: "RSP-010 an assistant message sent back takes output_text parts",
    level: "error",
    providerError: undefined,
    request: breaking((request) => {
      request.input[9] = { type: "message", role: "assistant", content: [{ type: "input_text", text: "A diagram of the build." }] };
    }),
    fires: [{ rule: "RSP-010", path: "input[9].content[0].type", messageIndex: 9 }],
  },
  {
    name: "RSP-010 an output_text part sent back without its annotations",
    level: "error",
    providerError: undefined,
    request: breaking((request) => {
      request.input[7] = { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "output_text", text: "a.ts is empty; b.ts exports b." }] };
    }),
    fires: [{ rule: "RSP-010", path: "input[7].content[0].annotations", messageIndex: 7 }],
  },
  {
    name: "RSP-010 a function_call's arguments are JSON text",
    level: "error",
    providerError: undefined,
    request: breaking((request) => {
      request.input[2] = { ...call("call_1", "fc_1"), arguments: { path: "a.ts" } };
    }),
    fires: [{ rule: "RSP-010", path: "input[2].arguments", messageIndex: 2 }],
  },
  {
    name: "RSP-010 a function output of null (a tool that returned None)",
    level: "error",
    providerError: undefined,
    request: breaking((request) => {
      request.input[4] = output("call_1", null);
    }),
    fires: [{ rule: "RSP-010", path: "input[4].output", messageIndex: 4 }],
  },
  {
    name: "RSP-010 a reasoning item without its summary",
    level: "error",
    providerError: undefined,
    request: breaking((request) => {
      request.input[6] = { type: "reasoning", id: "rs_2", encrypted_content: "gAAAAB" };
    }),
    fires: [{ rule: "RSP-010", path: "input[6].summary", messageIndex: 6 }],
  },
  {
    name: "RSP-010 an item that is not an object",
    level: "error",
    providerError: undefined,
    request: breaking((request) => {
      request.input.push("Thanks." as unknown as Item);
    }),
    fires: [{ rule: "RSP-010", path: "input[16]", messageIndex: 16 }],
  },
  {
    name: "RSP-011 input is not empty",
    level: "strict",
    providerError: undefined,
    request: { model: "gpt-5", instructions: "Be brief.", input: [] },
    fires: [{ rule: "RSP-011", path: "input" }],
  },
  {
    name: "RSP-001 an output whose call is not in input",
    level: "error",
    providerError: NO_CALL,
    request: breaking((request) => {
      request.input.splice(10, 0, output("call_9"));
    }),
    fires: [{ rule: "RSP-001", path: "input[10].call_id", messageIndex: 10 }],
  },
  {
    name: "RSP-001 an output before its call",
    level: "error",
    providerError: NO_CALL,
    request: { model: "gpt-5", input: [user(), output("call_1"), call("call_1"), user("Go on.")] },
    fires: [
      { rule: "RSP-001", path: "input[1].call_id", messageIndex: 1 },
      { rule: "RSP-002", path: "input[2].call_id", messageIndex: 2 },
    ],
  },
  {
    name: "RSP-002 a call left without its output (an interrupted run)",
    level: "error",
    providerError: NO_OUTPUT,
    request: breaking((request) => {
      request.input.splice(5, 1);
    }),
    fires: [{ rule: "RSP-002", path: "input[3].call_id", messageIndex: 3 }],
  },
  {
    name: "RSP-003 a call answered twice",
    level: "error",
    providerError: DUPLICATE,
    request: breaking((request) => {
      request.input.splice(6, 0, output("call_2", "again"));
    }),
    fires: [{ rule: "RSP-003", path: "input[6].call_id", messageIndex: 6 }],
  },
  {
    name: "RSP-003 a call id used by two calls (a per-turn counter reused)",
    level: "error",
    providerError: DUPLICATE,
    request: { model: "gpt-5", input: [user(), call("terminal_0"), output("terminal_0"), user("Again."), call("terminal_0"), output("terminal_0")] },
    fires: [
      { rule: "RSP-003", path: "input[4].call_id", messageIndex: 4 },
      { rule: "RSP-003", path: "input[5].call_id", messageIndex: 5 },
    ],
  },
  {
    name: "RSP-004 a user message between a call and its output",
    level: "strict",
    providerError: undefined,
    request: breaking((request) => {
      request.input.splice(5, 0, user("Stop."));
    }),
    fires: [{ rule: "RSP-004", path: "input[6]", messageIndex: 6 }],
  },
  {
    name: "RSP-015 a call id over 64 characters",
    level: "error",
    providerError: CALL_ID_TOO_LONG,
    request: breaking((request) => {
      const id = `codex_mcp__hermes-tools__kanban_complete_exec-${"0".repeat(36)}`;
      request.input[2] = call(id, "fc_1");
      request.input[4] = output(id);
    }),
    fires: [
      { rule: "RSP-015", path: "input[2].call_id", messageIndex: 2 },
      { rule: "RSP-015", path: "input[4].call_id", messageIndex: 4 },
    ],
  },
  {
    name: "RSP-016 a dotted function name in the history",
    level: "error",
    providerError: "Invalid 'input[222].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'",
    request: breaking((request) => {
      request.input[3] = call("call_2", "fc_2", "files.read");
    }),
    fires: [{ rule: "RSP-016", path: "input[3].name", messageIndex: 3 }],
  },
  {
    name: "RSP-017 a function name over 128 characters",
    level: "error",
    providerError: "Invalid 'input[10].name': string too long. Expected a string with maximum length 128, but got a string with length 134 instead.",
    request: breaking((request) => {
      request.input[3] = call("call_2", "fc_2", "r".repeat(134));
    }),
    fires: [
      { rule: "RSP-017", path: "input[3].name", messageIndex: 3 },
      { rule: "RSP-019", path: "input[3].name", messageIndex: 3 },
    ],
  },
  {
    name: "RSP-005 an 11 MB paste",
    level: "error",
    providerError: "Invalid 'input[0].content': string too long. Expected a string with maximum length 10485760, but got a string with length 62114761 instead.",
    request: breaking((request) => {
      request.input[0] = user("a".repeat(10_485_761));
    }),
    fires: [{ rule: "RSP-005", path: "input[0].content", messageIndex: 0 }],
  },
  {
    name: "RSP-006 a whitespace assistant message",
    level: "strict",
    providerError: undefined,
    request: breaking((request) => {
      request.input[9] = answer(" \n");
    }),
    fires: [{ rule: "RSP-006", path: "input[9].content", messageIndex: 9 }],
  },
  {
    name: "RSP-006 an empty text part next to an image",
    level: "strict",
    providerError: undefined,
    request: breaking((request) => {
      request.input[8] = user([{ type: "input_text", text: "" }, { type: "input_image", detail: "auto", image_url: "https://example.test/a.png" }]);
    }),
    fires: [{ rule: "RSP-006", path: "input[8].content[0].text", messageIndex: 8 }],
  },
  {
    name: "RSP-006 an empty function output",
    level: "strict",
    providerError: undefined,
    request: breaking((request) => {
      request.input[4] = output("call_1", "");
    }),
    fires: [{ rule: "RSP-006", path: "input[4].output", messageIndex: 4 }],
  },
  {
    name: "RSP-008 a reasoning item last",
    level: "error",
    providerError: NO_FOLLOWING_ITEM,
    request: breaking((request) => {
      request.input.push(reasoning("rs_4"));
    }),
    fires: [{ rule: "RSP-008", path: "input[16]", messageIndex: 16 }],
  },
  {
    name: "RSP-008 a reasoning item whose answer was dropped (a user message follows)",
    level: "error",
    providerError: NO_FOLLOWING_ITEM,
    request: breaking((request) => {
      request.input.splice(7, 1);
    }),
    fires: [{ rule: "RSP-008", path: "input[6]", messageIndex: 6 }],
  },
  {
    name: "RSP-008 two reasoning items in a row before a user message: neither is followed by its item",
    level: "error",
    providerError: NO_FOLLOWING_ITEM,
    request: breaking((request) => {
      request.input.splice(7, 1, reasoning("rs_2b"));
    }),
    fires: [
      { rule: "RSP-008", path: "input[6]", messageIndex: 6 },
      { rule: "RSP-008", path: "input[7]", messageIndex: 7 },
    ],
  },
  {
    name: "RSP-008 a reasoning item sent with its id before a message sent without one",
    level: "error",
    providerError: NO_FOLLOWING_ITEM,
    request: breaking((request) => {
      request.input[7] = answer("a.ts is empty; b.ts exports b.");
    }),
    fires: [{ rule: "RSP-008", path: "input[6]", messageIndex: 6 }],
  },
  {
    name: "RSP-009 a message sent with its id after a reasoning item sent without one",
    level: "error",
    providerError: NO_REASONING,
    request: breaking((request) => {
      request.input[6] = reasoning();
    }),
    fires: [{ rule: "RSP-009", path: "input[7].id", messageIndex: 7 }],
  },
  {
    name: "RSP-009 a parallel call sent with its id after reasoning without one",
    level: "error",
    providerError: NO_REASONING,
    request: breaking((request) => {
      request.input[1] = reasoning();
      request.input[2] = call("call_1");
    }),
    fires: [{ rule: "RSP-009", path: "input[3].id", messageIndex: 3 }],
  },
  {
    name: "RSP-023 with store: false, reasoning travels encrypted",
    level: "error",
    providerError:
      "Item with id 'rs_688404f677dc81a1b0f94bd50c9dbc4b064a6bfa4c1e652e' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.",
    request: breaking((request) => {
      request.store = false;
      request.input[6] = reasoning("rs_2", { encrypted_content: null });
    }),
    fires: [{ rule: "RSP-023", path: "input[6].encrypted_content", messageIndex: 6 }],
  },
  {
    name: "RSP-023 with store: false, no item_reference",
    level: "error",
    providerError:
      "Item with id 'rs_688404f677dc81a1b0f94bd50c9dbc4b064a6bfa4c1e652e' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.",
    request: breaking((request) => {
      request.store = false;
      request.input.splice(10, 0, { type: "item_reference", id: "msg_0" });
    }),
    fires: [{ rule: "RSP-023", path: "input[10]", messageIndex: 10 }],
  },
  {
    name: "RSP-012 a call id sent as the item id",
    level: "error",
    providerError: BAD_PREFIX,
    request: breaking((request) => {
      request.input[2] = call("call_1", "call_1");
    }),
    fires: [{ rule: "RSP-012", path: "input[2].id", messageIndex: 2 }],
  },
  {
    name: "RSP-012 a stored message id of the application's own",
    level: "error",
    providerError: BAD_PREFIX,
    request: breaking((request) => {
      request.input[13] = answer("It comes from the handbook.", "019f629b-43ee-7a82-acb1-3071dbffbdad");
    }),
    fires: [{ rule: "RSP-012", path: "input[13].id", messageIndex: 13 }],
  },
  {
    name: "RSP-013 an id over 64 characters",
    level: "error",
    providerError: "Invalid 'input[2].id': string too long. Expected a string with maximum length 64, but got a string with length 416 instead.",
    request: breaking((request) => {
      request.input[1] = reasoning(`rs_${"0".repeat(413)}`);
    }),
    fires: [{ rule: "RSP-013", path: "input[1].id", messageIndex: 1 }],
  },
  {
    name: "RSP-014 an empty id",
    level: "strict",
    providerError: "Invalid 'input[6].id': ''. Expected an ID that contains letters, numbers, underscores, or dashes, but this value contained additional characters.",
    request: breaking((request) => {
      request.input[0] = { ...user(), id: "" };
    }),
    fires: [{ rule: "RSP-014", path: "input[0].id", messageIndex: 0 }],
  },
  {
    name: "RSP-018 a dotted tool name",
    level: "error",
    providerError: TOOL_NAME_PATTERN,
    request: breaking((request) => {
      request.tools = [{ type: "function", name: "github.search", parameters: { type: "object" }, strict: false }];
    }),
    fires: [{ rule: "RSP-018", path: "tools[0].name" }],
  },
  {
    name: "RSP-018 tools must be an array",
    level: "error",
    providerError: TOOL_NAME_PATTERN,
    request: breaking((request) => {
      request.tools = { read_file: {} };
    }),
    fires: [{ rule: "RSP-018", path: "tools" }],
  },
  {
    name: "RSP-019 a tool name other providers refuse",
    level: "strict",
    providerError: undefined,
    request: breaking((request) => {
      request.tools = [{ type: "function", name: `mcp__plugin_everything-claude-code_github__${"x".repeat(30)}`, parameters: { type: "object" }, strict: false }];
    }),
    fires: [{ rule: "RSP-019", path: "tools[0].name" }],
  },
  {
    name: "RSP-020 two tools of one name",
    level: "strict",
    providerError: undefined,
    request: breaking((request) => {
      const tool = { type: "function", name: "read_file", parameters: { type: "object" }, strict: false };
      request.tools = [tool, { ...tool, description: "Reads a file" }];
    }),
    fires: [{ rule: "RSP-020", path: "tools[1].name" }],
  },
  {
    name: "RSP-021 max_output_tokens below 16",
    level: "error",
    providerError: "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 10 instead.",
    request: breaking((request) => {
      request.max_output_tokens = 10;
    }),
    fires: [{ rule: "RSP-021", path: "max_output_tokens" }],
  },
  {
    name: "RSP-022 blank instructions",
    level: "strict",
    providerError: undefined,
    request: breaking((request) => {
      request.instructions = " ";
    }),
    fires: [{ rule: "RSP-022", path: "instructions" }],
  },
  {
    name: "RSP-024 a prompt cache key over 64 characters",
    level: "error",
    providerError: "Invalid 'prompt_cache_key': string too long. Expected a string with maximum length 64, but got a string with length 72 instead.",
    request: breaking((request) => {
      request.prompt_cache_key = `run-${"7".repeat(68)}`;
    }),
    fires: [{ rule: "RSP-024", path: "prompt_cache_key" }],
  },
];

const ruleById = (id: string) => openAIResponsesRules.find((rule) => rule.id === id)!;

describe("openAIResponsesRules", () => {
  test("starts with the common rules, then the RSP rules grouped by what they look at, each with a case below", () => {
    expect(openAIResponsesRules.slice(0, commonRequestRules.length)).toEqual(commonRequestRules);
    const own = openAIResponsesRules.slice(commonRequestRules.length).map((rule) => rule.id);
    expect(own).toEqual(["010", "011", "001", "002", "003", "004", "015", "016", "017", "005", "006", "008", "009", "023", "012", "013", "014", "018", "019", "020", "021", "022", "024"].map((number) => `RSP-${number}`));
    expect(new Set(cases.map((testCase) => testCase.name.slice(0, 7)))).toEqual(new Set(openAIResponsesRules.map((rule) => rule.id)));
  });

  test("a valid request breaks no rule", () => {
    expect(checkRules(openAIResponsesRules, valid())).toEqual([]);
  });

  test("a string input breaks no rule", () => {
    expect(checkRules(openAIResponsesRules, { model: "gpt-5", input: "What is in a.ts?" })).toEqual([]);
  });

  test.for(cases)("$name", ({ name, level, providerError, request, fires }) => {
    const rule = ruleById(name.slice(0, 7));
    expect(rule.level).toBe(level);
    expect(rule.providerError).toBe(providerError);
    const violations = checkRules(openAIResponsesRules, request);
    expect(violations.map(({ rule, path, messageIndex }) => ({ rule, path, ...(messageIndex === undefined ? {} : { messageIndex }) }))).toEqual(fires);
    const own = violations.find((violation) => violation.rule === rule.id)!;
    expect(own).toMatchObject({ level, message: expect.any(String) });
    expect(own.providerError).toBe(providerError);
  });

  test("says what is wrong in words that name the call", () => {
    const request = breaking((request) => {
      request.input.splice(5, 1);
    });
    expect(checkRules(openAIResponsesRules, request)[0]?.message).toBe('function_call "call_2" ("read_file") has no function_call_output after it');
  });

  test("an output whose call a stored response holds passes with previous_response_id (RSP-001's exception)", () => {
    const request = { model: "gpt-5", previous_response_id: "resp_1", input: [output("call_1")] };
    expect(checkRules(openAIResponsesRules, request)).toEqual([]);
  });

  test("reasoning without ids before items without ids is the stateless form, and passes", () => {
    const request = { model: "gpt-5", store: false, input: [user(), reasoning(), call("call_1"), output("call_1"), reasoning(), answer("Done.")] };
    expect(checkRules(openAIResponsesRules, request)).toEqual([]);
  });

  test("two reasoning items in a row, then the message they led to, pass (the API may return several)", () => {
    expect(checkRules(openAIResponsesRules, breaking((request) => request.input.splice(7, 0, reasoning("rs_2b"))), {})).toEqual([]);
  });

  test("a frozen request is read the same as a fresh one, again and again", () => {
    const deepFreeze = (request: Request): Request => Object.freeze({ ...request, input: Object.freeze(request.input.map((item) => Object.freeze(item))) as Item[] });
    const broken = breaking((request) => {
      request.input.splice(7, 1);
    });
    const frozen = deepFreeze(broken);
    const expected = checkRules(openAIResponsesRules, broken);
    expect(checkRules(openAIResponsesRules, frozen)).toEqual(expected);
    expect(checkRules(openAIResponsesRules, frozen)).toEqual(expected);
  });

  test.for([
    { case: "null", request: null },
    { case: "a number", request: 42 },
    { case: "a string", request: "Hi." },
    { case: "an array", request: [user()] },
    { case: "junk items", request: { input: [null, 7, "x", [], { type: 5 }, { type: "message" }, { type: "function_call" }, { type: "reasoning", summary: "x" }, { role: "user", content: [null, 3] }] } },
    { case: "a sparse input", request: { input: Object.assign(new Array<unknown>(3), { 0: user(), 2: reasoning("rs_1") }) } },
    { case: "junk tools and fields", request: { input: [user()], tools: [null, { type: "function" }], max_output_tokens: "many", instructions: 3, prompt_cache_key: {} } },
  ])("never throws on $case, and reports each problem with a path", ({ request }) => {
    const violations = checkRules(openAIResponsesRules, request);
    expect(violations.every((violation) => typeof violation.message === "string" && typeof violation.path === "string")).toBe(true);
  });

  test("never throws on any JSON-like value, and a violation's messageIndex always points into input", () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.record({ input: fc.array(fc.oneof(fc.anything(), fc.record({ type: fc.constantFrom("message", "function_call", "function_call_output", "reasoning", "web_search_call"), role: fc.string(), call_id: fc.string(), id: fc.string(), content: fc.anything() }, { requiredKeys: [] }))) })), (request) => {
        const violations = checkRules(openAIResponsesRules, request);
        const length = typeof request === "object" && request !== null && "input" in request && Array.isArray(request.input) ? request.input.length : 0;
        for (const violation of violations) if (violation.messageIndex !== undefined) expect(violation.messageIndex).toBeLessThan(length);
      }),
      { numRuns: 500 },
    );
  });
});
