import { checkRules, commonRequestRules, type RuleLevel } from "@ctxpipe/core";
import { describe, expect, test } from "vitest";
import { anthropicMessagesRules } from "./anthropic-messages-rules.js";

type Messages = Array<{ role?: unknown; content?: unknown } | unknown>;
type Request = { [key: string]: unknown; messages: Messages };

const text = (value: string) => ({ type: "text", text: value });
const thinking = { type: "thinking", thinking: "plan", signature: "sig" };
const toolUse = (id = "toolu_1", input: unknown = { path: "a.ts" }) => ({ type: "tool_use", id, name: "read_file", input });
const toolResult = (id = "toolu_1", content: unknown = "export {}") => ({ type: "tool_result", tool_use_id: id, content });

/** A request that breaks no rule: system prompt, a tool loop with thinking, string and block content. */
function valid(): Request {
  return {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    system: "Be brief.",
    tools: [{ name: "read_file", description: "Read a file", input_schema: { type: "object", properties: { path: { type: "string" } } } }],
    messages: [
      { role: "user", content: [text("Read a.ts")] },
      { role: "assistant", content: [thinking, text("Reading."), toolUse()] },
      { role: "user", content: [toolResult(), text("Thanks.")] },
      { role: "assistant", content: [text("It is empty.")] },
      { role: "user", content: "Good." },
    ],
  };
}

/** The valid request with one change. */
function breaking(change: (request: Request) => void): Request {
  const request = valid();
  change(request);
  return request;
}

/** A system prompt long enough for any model to cache (claude-sonnet-4-5 caches 1,024 tokens and more). */
const LONG_PROMPT = "Follow the house style in every answer. ".repeat(300);

const messageAt = (request: Request, index: number) => request.messages[index] as { role: unknown; content: unknown[] };

interface Case {
  readonly name: string;
  readonly level: RuleLevel;
  /** The provider's own error text from reference/providers.md §3, when one is quoted there. */
  readonly providerError: string | undefined;
  readonly request: unknown;
  /** Every violation expected: the rule under test first, then any other the same mistake breaks. */
  readonly fires: ReadonlyArray<{ rule: string; path: string; messageIndex?: number }>;
}

const cases: Case[] = [
  {
    name: "ANT-001 messages must not be empty",
    level: "error",
    providerError: "messages: at least one message is required",
    request: { max_tokens: 1, system: "Only a system prompt.", messages: [] },
    fires: [{ rule: "ANT-001", path: "messages" }],
  },
  {
    name: "ANT-001 messages must be an array",
    level: "error",
    providerError: "messages: at least one message is required",
    request: { max_tokens: 1 },
    fires: [{ rule: "ANT-001", path: "messages" }],
  },
  {
    name: "ANT-018 at most 100,000 messages",
    level: "error",
    providerError: undefined,
    request: { max_tokens: 1, messages: Array.from({ length: 100_001 }, (_, index) => ({ role: index % 2 === 0 ? "user" : "assistant", content: "x" })) },
    fires: [{ rule: "ANT-018", path: "messages[100000]", messageIndex: 100_000 }],
  },
  {
    name: "ANT-002 no system role inside messages",
    level: "error",
    providerError: 'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
    request: breaking((request) => {
      request.messages[3] = { role: "system", content: "Answer in French." };
    }),
    fires: [{ rule: "ANT-002", path: "messages[3].role", messageIndex: 3 }],
  },
  {
    name: "ANT-002 a message is an object",
    level: "error",
    providerError: 'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
    request: breaking((request) => {
      request.messages[3] = "It is empty.";
    }),
    fires: [{ rule: "ANT-002", path: "messages[3]", messageIndex: 3 }],
  },
  {
    name: "ANT-025 system is a string or text blocks",
    level: "error",
    providerError: undefined,
    request: breaking((request) => {
      request.system = [text("Be brief."), { type: "image", source: {} }];
    }),
    fires: [{ rule: "ANT-025", path: "system[1]" }],
  },
  {
    name: "ANT-003 an empty system prompt is left out",
    level: "strict",
    providerError: undefined,
    request: breaking((request) => {
      request.system = "";
    }),
    fires: [{ rule: "ANT-003", path: "system" }],
  },
  {
    name: "ANT-004 the first message is a user message",
    level: "strict",
    providerError: "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
    request: { max_tokens: 1, messages: [{ role: "assistant", content: "Hello." }, { role: "user", content: "Hi." }] },
    fires: [{ rule: "ANT-004", path: "messages[0].role", messageIndex: 0 }],
  },
  {
    name: "ANT-005 roles alternate",
    level: "strict",
    providerError: 'messages: roles must alternate between "user" and "assistant", but found multiple "user" roles in a row',
    request: { max_tokens: 1, messages: [{ role: "user", content: "One." }, { role: "user", content: "Two." }] },
    fires: [{ rule: "ANT-005", path: "messages[1].role", messageIndex: 1 }],
  },
  {
    name: "ANT-006 every tool_use is answered in the next user turn",
    level: "error",
    providerError:
      "messages.N: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_…. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    request: breaking((request) => {
      messageAt(request, 2).content = [text("Thanks.")];
    }),
    fires: [{ rule: "ANT-006", path: "messages[1].content[2].id", messageIndex: 1 }],
  },
  {
    name: "ANT-006 a tool_use at the very end is unanswered too",
    level: "error",
    providerError:
      "messages.N: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_…. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    request: breaking((request) => {
      request.messages.splice(2);
    }),
    fires: [
      { rule: "ANT-006", path: "messages[1].content[2].id", messageIndex: 1 },
      { rule: "ANT-015", path: "messages[1].role", messageIndex: 1 },
    ],
  },
  {
    name: "ANT-007 every tool_result answers the preceding assistant turn",
    level: "error",
    providerError:
      "messages.N.content.M: unexpected `tool_use_id` found in `tool_result` blocks: toolu_…. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
    request: breaking((request) => {
      messageAt(request, 0).content = [toolResult("toolu_0"), text("Read a.ts")];
    }),
    fires: [{ rule: "ANT-007", path: "messages[0].content[0].tool_use_id", messageIndex: 0 }],
  },
  {
    name: "ANT-008 tool_result blocks come first",
    level: "error",
    providerError:
      "messages.27: Did not find 1 tool_result block(s) at the beginning of this message. Messages following tool_use blocks must begin with a matching number of tool_result blocks.",
    request: breaking((request) => {
      messageAt(request, 2).content = [text("Thanks."), toolResult()];
    }),
    fires: [{ rule: "ANT-008", path: "messages[2].content[1]", messageIndex: 2 }],
  },
  {
    name: "ANT-008 also after the API merges a user text message into the tool-result turn",
    level: "error",
    providerError:
      "messages.27: Did not find 1 tool_result block(s) at the beginning of this message. Messages following tool_use blocks must begin with a matching number of tool_result blocks.",
    request: breaking((request) => {
      request.messages.splice(2, 1, { role: "user", content: "Wait." }, { role: "user", content: [toolResult()] });
    }),
    fires: [
      { rule: "ANT-005", path: "messages[3].role", messageIndex: 3 },
      { rule: "ANT-008", path: "messages[3].content[0]", messageIndex: 3 },
    ],
  },
  {
    name: "ANT-009 tool_use ids are unique",
    level: "error",
    providerError: "messages.43.content.2: `tool_use` ids must be unique",
    request: breaking((request) => {
      messageAt(request, 1).content.push(toolUse());
    }),
    fires: [{ rule: "ANT-009", path: "messages[1].content[3].id", messageIndex: 1 }],
  },
  {
    name: "ANT-009 each tool_use has a single result",
    level: "error",
    providerError: "messages.43.content.2: `tool_use` ids must be unique",
    request: breaking((request) => {
      messageAt(request, 2).content = [toolResult(), toolResult(), text("Thanks.")];
    }),
    fires: [{ rule: "ANT-009", path: "messages[2].content[1].tool_use_id", messageIndex: 2 }],
  },
  {
    name: "ANT-010 tool ids match ^[a-zA-Z0-9_-]+$",
    level: "error",
    providerError: "messages.1.content.1.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    request: breaking((request) => {
      messageAt(request, 1).content[2] = toolUse("functions.eval:301");
      messageAt(request, 2).content[0] = toolResult("functions.eval:301");
    }),
    fires: [
      { rule: "ANT-010", path: "messages[1].content[2].id", messageIndex: 1 },
      { rule: "ANT-010", path: "messages[2].content[0].tool_use_id", messageIndex: 2 },
    ],
  },
  {
    name: "ANT-026 tool names match ^[a-zA-Z0-9_-]{1,64}$",
    level: "strict",
    providerError: undefined,
    request: breaking((request) => {
      request.tools = [{ name: "mcp.server/read file", input_schema: { type: "object" } }];
    }),
    fires: [{ rule: "ANT-026", path: "tools[0].name" }],
  },
  {
    name: "ANT-011 no empty content",
    level: "error",
    providerError: "messages.0: all messages must have non-empty content except for the optional final assistant message",
    request: breaking((request) => {
      messageAt(request, 3).content = [];
    }),
    fires: [{ rule: "ANT-011", path: "messages[3].content", messageIndex: 3 }],
  },
  {
    name: "ANT-012 no whitespace-only text blocks",
    level: "error",
    providerError: "messages: text content blocks must be non-empty",
    request: breaking((request) => {
      messageAt(request, 3).content = [text(" \n")];
    }),
    fires: [{ rule: "ANT-012", path: "messages[3].content[0].text", messageIndex: 3 }],
  },
  {
    name: "ANT-012 no empty text inside tool_result",
    level: "error",
    providerError: "messages: text content blocks must be non-empty",
    request: breaking((request) => {
      messageAt(request, 2).content[0] = toolResult("toolu_1", [text("")]);
    }),
    fires: [{ rule: "ANT-012", path: "messages[2].content[0].content[0].text", messageIndex: 2 }],
  },
  {
    name: "ANT-013 at most 4 cache_control breakpoints",
    level: "error",
    providerError: "A maximum of 4 blocks with cache_control may be provided. Found 5.",
    request: breaking((request) => {
      const cached = (value: string) => ({ ...text(value), cache_control: { type: "ephemeral" } });
      request.system = [cached("Be brief.")];
      (request.tools as Array<Record<string, unknown>>)[0]!.cache_control = { type: "ephemeral" };
      messageAt(request, 0).content = [cached("Read a.ts")];
      messageAt(request, 3).content = [cached("It is empty.")];
      request.messages[4] = { role: "user", content: [cached("Good.")] };
    }),
    fires: [
      { rule: "ANT-013", path: "messages[4].content[0].cache_control", messageIndex: 4 },
      // The request is a few hundred bytes: every breakpoint in it is also too short to cache anything.
      { rule: "ANT-028", path: "tools[0].cache_control" },
      { rule: "ANT-028", path: "system[0].cache_control" },
      { rule: "ANT-028", path: "messages[0].content[0].cache_control", messageIndex: 0 },
      { rule: "ANT-028", path: "messages[3].content[0].cache_control", messageIndex: 3 },
      { rule: "ANT-028", path: "messages[4].content[0].cache_control", messageIndex: 4 },
    ],
  },
  {
    name: "ANT-021 no cache_control on an empty text block",
    level: "error",
    providerError: "messages.29.content.0.text: cache_control cannot be set for empty text blocks",
    request: breaking((request) => {
      messageAt(request, 2).content.push({ ...text(""), cache_control: { type: "ephemeral" } });
    }),
    fires: [
      { rule: "ANT-012", path: "messages[2].content[2].text", messageIndex: 2 },
      { rule: "ANT-021", path: "messages[2].content[2].cache_control", messageIndex: 2 },
      { rule: "ANT-028", path: "messages[2].content[2].cache_control", messageIndex: 2 },
    ],
  },
  {
    name: "ANT-027 a 1h breakpoint does not come after a 5m one",
    level: "error",
    providerError:
      "messages.0.content.4.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.",
    request: breaking((request) => {
      // The tools are read first, so their 5-minute breakpoint comes before the system prompt's 1-hour one.
      (request.tools as Array<Record<string, unknown>>)[0]!.cache_control = { type: "ephemeral" };
      request.system = [{ ...text(LONG_PROMPT), cache_control: { type: "ephemeral", ttl: "1h" } }];
    }),
    // The tool definition alone is too short to cache: that breakpoint is wasted too.
    fires: [
      { rule: "ANT-027", path: "system[0].cache_control.ttl" },
      { rule: "ANT-028", path: "tools[0].cache_control" },
    ],
  },
  {
    name: "ANT-027 a 1h breakpoint inside a tool result after an explicit 5m one",
    level: "error",
    providerError:
      "messages.0.content.4.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.",
    request: breaking((request) => {
      request.system = [{ ...text(LONG_PROMPT), cache_control: { type: "ephemeral", ttl: "5m" } }];
      messageAt(request, 2).content = [toolResult("toolu_1", [{ ...text("export {}"), cache_control: { type: "ephemeral", ttl: "1h" } }])];
    }),
    fires: [{ rule: "ANT-027", path: "messages[2].content[0].content[0].cache_control.ttl", messageIndex: 2 }],
  },
  {
    name: "ANT-028 a breakpoint on a prefix too short to cache",
    level: "strict",
    providerError: undefined,
    request: breaking((request) => {
      request.system = [{ ...text("Be brief."), cache_control: { type: "ephemeral" } }];
    }),
    fires: [{ rule: "ANT-028", path: "system[0].cache_control" }],
  },
  {
    name: "ANT-014 thinking blocks open the assistant message",
    level: "error",
    providerError: "If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found text.",
    request: breaking((request) => {
      messageAt(request, 1).content = [text("Reading."), thinking, toolUse()];
    }),
    fires: [{ rule: "ANT-014", path: "messages[1].content[0]", messageIndex: 1 }],
  },
  {
    name: "ANT-022 thinking blocks keep their signature",
    level: "error",
    providerError: "thinking.signature: Field required",
    request: breaking((request) => {
      messageAt(request, 1).content[0] = { type: "thinking", thinking: "plan" };
    }),
    fires: [{ rule: "ANT-022", path: "messages[1].content[0].signature", messageIndex: 1 }],
  },
  {
    name: "ANT-023 an assistant message does not end with thinking",
    level: "error",
    providerError: "The final block in an assistant message cannot be `thinking`.",
    request: breaking((request) => {
      messageAt(request, 3).content = [{ type: "redacted_thinking", data: "opaque" }];
    }),
    fires: [{ rule: "ANT-023", path: "messages[3].content[0]", messageIndex: 3 }],
  },
  {
    name: "ANT-024 thinking only in assistant messages",
    level: "error",
    providerError: undefined,
    request: breaking((request) => {
      messageAt(request, 0).content = [thinking, text("Read a.ts")];
    }),
    fires: [{ rule: "ANT-024", path: "messages[0].content[0]", messageIndex: 0 }],
  },
  {
    name: "ANT-015 end on a user message",
    level: "strict",
    providerError: "This model does not support assistant message prefill. The conversation must end with a user message.",
    request: breaking((request) => {
      request.messages.pop();
    }),
    fires: [{ rule: "ANT-015", path: "messages[3].role", messageIndex: 3 }],
  },
  {
    name: "ANT-016 a final assistant message does not end in whitespace",
    level: "error",
    providerError: "messages: final assistant content cannot end with trailing whitespace",
    request: breaking((request) => {
      request.messages.pop();
      messageAt(request, 3).content = [text("The answer is ")];
    }),
    fires: [
      { rule: "ANT-015", path: "messages[3].role", messageIndex: 3 },
      { rule: "ANT-016", path: "messages[3].content[0].text", messageIndex: 3 },
    ],
  },
  {
    name: "ANT-017 every tool_result has content",
    level: "strict",
    providerError: undefined,
    request: breaking((request) => {
      messageAt(request, 2).content[0] = toolResult("toolu_1", "");
    }),
    fires: [{ rule: "ANT-017", path: "messages[2].content[0].content", messageIndex: 2 }],
  },
  {
    name: "ANT-019 tool_result only in user messages",
    level: "error",
    providerError: undefined,
    request: breaking((request) => {
      messageAt(request, 3).content.push(toolResult("toolu_1", "again"));
    }),
    fires: [{ rule: "ANT-019", path: "messages[3].content[1]", messageIndex: 3 }],
  },
  {
    name: "ANT-020 tool_use input is an object",
    level: "error",
    providerError: undefined,
    request: breaking((request) => {
      messageAt(request, 1).content[2] = toolUse("toolu_1", '{"path":"a.ts"}');
    }),
    fires: [{ rule: "ANT-020", path: "messages[1].content[2].input", messageIndex: 1 }],
  },
];

const ruleById = (id: string) => anthropicMessagesRules.find((rule) => rule.id === id)!;

describe("anthropicMessagesRules", () => {
  test("starts with the common rules, then lists every ANT rule of providers.md §3 in its order", () => {
    expect(anthropicMessagesRules.slice(0, commonRequestRules.length)).toEqual(commonRequestRules);
    expect(anthropicMessagesRules.slice(commonRequestRules.length).map((rule) => rule.id)).toEqual(
      ["001", "018", "002", "025", "003", "004", "005", "006", "007", "008", "009", "010", "026", "011", "012", "013", "021", "027", "028", "014", "022", "023", "024", "015", "016", "017", "019", "020"].map(
        (number) => `ANT-${number}`,
      ),
    );
  });

  test("a valid request breaks no rule", () => {
    expect(checkRules(anthropicMessagesRules, valid())).toEqual([]);
  });

  test("an empty final assistant message is allowed (prefill), though not at the strict level", () => {
    const request = { max_tokens: 1, messages: [{ role: "user", content: "Hi." }, { role: "assistant", content: "" }] };
    expect(checkRules(anthropicMessagesRules, request).map((violation) => violation.rule)).toEqual(["ANT-015"]);
  });

  test.for(cases)("$name", ({ name, level, providerError, request, fires }) => {
    const rule = ruleById(name.slice(0, 7));
    expect(rule.level).toBe(level);
    expect(rule.providerError).toBe(providerError);
    const violations = checkRules(anthropicMessagesRules, request);
    expect(violations.map(({ rule, path, messageIndex }) => ({ rule, path, ...(messageIndex === undefined ? {} : { messageIndex }) }))).toEqual(fires);
    const own = violations.find((violation) => violation.rule === rule.id)!;
    expect(own).toMatchObject({ level, message: expect.any(String) });
    expect(own.providerError).toBe(providerError);
  });

  test.for([
    { case: "a listed model's own minimum (claude-opus-4-5 caches 4,096 tokens and more)", model: "claude-opus-4-5-20251101", bytes: 3000, fires: true },
    { case: "the request's model when the check is given none (claude-sonnet-4-5, 1,024)", model: undefined, bytes: 800, fires: true },
    { case: "a model not listed is held to the smallest minimum, 512", model: "claude-next", bytes: 600, fires: false },
    { case: "a model not listed, a prefix surely too short", model: "claude-next", bytes: 300, fires: true },
  ])("ANT-028 reads the minimum of $case", ({ model, bytes, fires }) => {
    const request = { model: "claude-sonnet-4-5", max_tokens: 1, system: [{ ...text("x".repeat(bytes)), cache_control: { type: "ephemeral" } }], messages: [{ role: "user", content: "Hi." }] };
    const found = checkRules(anthropicMessagesRules, request, model === undefined ? {} : { model }).filter((violation) => violation.rule === "ANT-028");
    expect(found.length).toBe(fires ? 1 : 0);
  });

  test("ANT-028 does not judge a prefix with an image: its tokens are not bounded by its JSON", () => {
    const image = { type: "image", source: { type: "url", url: "https://example.com/a.png" }, cache_control: { type: "ephemeral" } };
    const request = { model: "claude-sonnet-4-5", max_tokens: 1, messages: [{ role: "user", content: [image, text("What is this?")] }] };
    expect(checkRules(anthropicMessagesRules, request)).toEqual([]);
  });

  test("names the id that breaks the rule", () => {
    const request = breaking((request) => {
      messageAt(request, 2).content = [text("Thanks.")];
    });
    expect(checkRules(anthropicMessagesRules, request)[0]?.message).toBe('tool_use "toolu_1" has no tool_result in the next user turn: messages[2] does not answer it');
  });

  test("includes the common rules: a lone surrogate is COM-001", () => {
    const request = breaking((request) => {
      request.messages[4] = { role: "user", content: "cut \uD83D" };
    });
    expect(checkRules(anthropicMessagesRules, request)).toMatchObject([{ rule: "COM-001", path: "messages[4].content", messageIndex: 4 }]);
  });

  test.for([
    null,
    42,
    "messages",
    [],
    { messages: null },
    { messages: [null, 5, "x", [], { role: 7, content: 7 }] },
    { system: { text: 1 }, tools: [null, { name: 3 }], messages: [{ role: "user", content: [null, 7, [], { type: 5 }, { type: "tool_result" }, { type: "text" }] }] },
    { messages: [{ role: "assistant", content: [{ type: "tool_use" }, { type: "thinking" }, { type: "redacted_thinking" }] }, { role: "user", content: [{ type: "tool_result", content: [null, { type: "text", text: 5 }] }] }] },
  ])("never throws on a request of any shape: %j", (request) => {
    expect(() => checkRules(anthropicMessagesRules, request)).not.toThrow();
  });

  test("never throws on a request with a cycle", () => {
    const block: Record<string, unknown> = { type: "text", text: "loop" };
    block.self = block;
    expect(checkRules(anthropicMessagesRules, { max_tokens: 1, messages: [{ role: "user", content: [block] }] }).map((violation) => violation.rule)).toEqual(["COM-003"]);
  });
});
