// A small local stand-in for the OpenAI and Anthropic APIs, so the example runs the real SDKs without a
// network or a key. It answers like the provider: first a tool call, then, once the tool's result is in the
// request, the final answer; summary requests get a summary. It checks every request it receives against
// the provider's rules (written here independently of ctxpipe) and answers HTTP 400 when one is broken, as
// the provider would: the SDK then throws, and the problem is kept in `problems` and printed.
// Usage: OpenAI's prompt_tokens counted the way OpenAI counts them; Anthropic's, about 4 characters a token.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { countOpenAIChatTokens, type OpenAIChatRequest } from "@ctxpipe/core";
import { getEncoding } from "@ctxpipe/tokenizers";

export type Provider = "openai" | "anthropic";

export interface ReceivedRequest {
  readonly provider: Provider;
  readonly kind: "turn" | "summary";
  readonly body: Record<string, unknown>;
  /** Messages at the start of this request equal to an earlier request's (what a prompt cache could reuse). */
  readonly cachedMessages: number;
}

export interface ProviderServer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly received: ReadonlyArray<ReceivedRequest>;
  readonly problems: ReadonlyArray<string>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isBlank = (value: unknown) => typeof value !== "string" || value.trim().length === 0;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const CALL_ID = /^[a-zA-Z0-9_-]+$/;
const SUMMARY_PROMPT = "Summarize the conversation below";

function isJsonObjectText(text: unknown): boolean {
  try {
    return isObject(JSON.parse(String(text)));
  } catch {
    return false;
  }
}

// ---- what each provider accepts ----

export function openAIProblems(body: Json): string[] {
  const problems: string[] = [];
  if (isBlank(body.model)) problems.push("model: required");
  if (body.max_completion_tokens !== undefined && !(Number.isInteger(body.max_completion_tokens) && (body.max_completion_tokens as number) > 0)) problems.push("max_completion_tokens: a positive integer");
  for (const [index, tool] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    if (!isObject(tool) || tool.type !== "function" || !isObject(tool.function) || !TOOL_NAME.test(String(tool.function.name)) || !isObject(tool.function.parameters)) problems.push(`tools[${index}]: not a function tool`);
  }
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return [...problems, "messages: a non-empty array"];
  let open = new Set<string>(); // calls of the last assistant message still waiting for their result
  const seen = new Set<string>();
  for (const [index, message] of (messages as unknown[]).entries()) {
    const at = `messages[${index}]`;
    if (!isObject(message)) {
      problems.push(`${at}: not an object`);
      continue;
    }
    if (message.role !== "tool" && open.size > 0) problems.push(`${at}: tool calls ${[...open].join(", ")} have no result before this ${String(message.role)} message`);
    if (message.role !== "tool") open = new Set();
    switch (message.role) {
      case "system":
      case "developer":
        if (isBlank(message.content)) problems.push(`${at}.content: empty`);
        break;
      case "user":
        if (!Array.isArray(message.content) && isBlank(message.content)) problems.push(`${at}.content: empty`);
        break;
      case "assistant": {
        const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
        if (message.tool_calls !== undefined && calls.length === 0) problems.push(`${at}.tool_calls: empty array`);
        if (calls.length === 0 && isBlank(message.content)) problems.push(`${at}: neither content nor tool_calls`);
        for (const call of calls) {
          if (!isObject(call) || !isObject(call.function) || call.type !== "function") {
            problems.push(`${at}.tool_calls: malformed call`);
            continue;
          }
          const id = String(call.id);
          if (!CALL_ID.test(id) || id.length > 40) problems.push(`${at}: call id "${id}" is invalid`);
          if (seen.has(id)) problems.push(`${at}: call id "${id}" used twice`);
          if (!TOOL_NAME.test(String(call.function.name))) problems.push(`${at}: tool name "${String(call.function.name)}" is invalid`);
          if (!isJsonObjectText(call.function.arguments)) problems.push(`${at}: arguments of "${id}" are not a JSON object`);
          seen.add(id);
          open.add(id);
        }
        break;
      }
      case "tool": {
        const id = String(message.tool_call_id);
        if (!open.has(id)) problems.push(`${at}: tool result "${id}" does not answer a call of the assistant message before it`);
        open.delete(id);
        if (isBlank(message.content)) problems.push(`${at}.content: empty`);
        break;
      }
      default:
        problems.push(`${at}.role: unknown role ${String(message.role)}`);
    }
  }
  if (open.size > 0) problems.push(`tool calls ${[...open].join(", ")} have no result`);
  const last = messages.at(-1) as Json | undefined;
  if (last?.role === "assistant") problems.push("the request ends with an assistant message");
  return problems;
}

export function anthropicProblems(body: Json): string[] {
  const problems: string[] = [];
  if (isBlank(body.model)) problems.push("model: required");
  if (!(Number.isInteger(body.max_tokens) && (body.max_tokens as number) > 0)) problems.push("max_tokens: a positive integer is required");
  if (body.system !== undefined && isBlank(body.system) && !Array.isArray(body.system)) problems.push("system: empty");
  if (body.cache_control !== undefined && !(isObject(body.cache_control) && body.cache_control.type === "ephemeral")) problems.push("cache_control: expected { type: 'ephemeral' }");
  for (const [index, tool] of (Array.isArray(body.tools) ? body.tools : []).entries()) {
    if (!isObject(tool) || !TOOL_NAME.test(String(tool.name)) || !isObject(tool.input_schema) || tool.input_schema.type !== "object") problems.push(`tools[${index}]: not a tool with an object input_schema`);
  }
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return [...problems, "messages: a non-empty array"];
  let pending: string[] = []; // tool_use ids of the assistant message before
  const seen = new Set<string>();
  for (const [index, message] of (messages as unknown[]).entries()) {
    const at = `messages[${index}]`;
    if (!isObject(message)) {
      problems.push(`${at}: not an object`);
      continue;
    }
    const expected = index % 2 === 0 ? "user" : "assistant";
    if (message.role !== expected) problems.push(`${at}.role: roles must alternate starting with user; expected ${expected}, got ${String(message.role)}`);
    const blocks: Json[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : Array.isArray(message.content) ? message.content.filter(isObject) : [];
    if (blocks.length === 0) problems.push(`${at}.content: empty`);
    for (const block of blocks) if (block.type === "text" && isBlank(block.text)) problems.push(`${at}: empty text block`);
    if (message.role === "user") {
      const results = blocks.filter((block) => block.type === "tool_result").map((block) => String(block.tool_use_id));
      const leading = blocks.findIndex((block) => block.type !== "tool_result");
      if (leading !== -1 && blocks.slice(leading).some((block) => block.type === "tool_result")) problems.push(`${at}: tool_result blocks must come first`);
      for (const id of results) if (!pending.includes(id)) problems.push(`${at}: tool_result "${id}" does not answer a tool_use of the previous assistant message`);
      for (const id of pending) if (!results.includes(id)) problems.push(`${at}: tool_use "${id}" has no tool_result here`);
      if (new Set(results).size !== results.length) problems.push(`${at}: a tool_use is answered twice`);
      pending = [];
    } else {
      pending = [];
      for (const block of blocks.filter((candidate) => candidate.type === "tool_use")) {
        const id = String(block.id);
        if (!CALL_ID.test(id)) problems.push(`${at}: tool_use id "${id}" is invalid`);
        if (seen.has(id)) problems.push(`${at}: tool_use id "${id}" used twice`);
        if (!TOOL_NAME.test(String(block.name)) || !isObject(block.input)) problems.push(`${at}: malformed tool_use "${id}"`);
        seen.add(id);
        pending.push(id);
      }
    }
  }
  if (pending.length > 0) problems.push(`tool_use ${pending.join(", ")} has no tool_result: the request ends after it`);
  if ((messages.at(-1) as Json | undefined)?.role !== "user") problems.push("the request must end with a user message");
  return problems;
}

// ---- how the "model" answers ----

/** About the tokens of every text in a value (4 characters a token): Anthropic publishes no tokenizer to count with. */
function aboutTokens(value: unknown): number {
  const text = (found: unknown): number => (typeof found === "string" ? found.length : Array.isArray(found) ? found.reduce((sum: number, entry) => sum + text(entry), 0) : isObject(found) ? Object.values(found).reduce((sum: number, entry) => sum + text(entry), 0) : 0);
  return Math.ceil(text(value) / 4);
}

function summaryOf(prompt: string): string {
  const maxTokens = Number(/Stay under about (\d+) tokens/.exec(prompt)?.[1] ?? 400);
  const earlier = /<earlier_summary>\n([\s\S]*?)\n<\/earlier_summary>/.exec(prompt)?.[1];
  const conversation = /<conversation>\n([\s\S]*)\n<\/conversation>/.exec(prompt)?.[1] ?? "";
  const lines = earlier === undefined ? [] : earlier.split("\n");
  for (const match of conversation.matchAll(/^\[user\] (.*)$/gm)) lines.push(`- The user asked: ${match[1]!.split(/\s+/).slice(0, 14).join(" ")}`);
  while (lines.join("\n").length / 4 > maxTokens && lines.length > 1) lines.shift();
  return lines.join("\n");
}

/** The call the model makes for a user's request. */
function toolCallFor(userText: string): { name: string; input: Json } {
  const path = /[\w/-]+\.ts\b/.exec(userText)?.[0];
  if (path !== undefined) return { name: "read_file", input: { path } };
  return { name: "run_tests", input: { package: /\b(\w+) tests?\b/.exec(userText)?.[1] ?? "ledger" } };
}

/** The final answer, from the tool results the request ends with. */
function answerFrom(results: ReadonlyArray<string>): string {
  const findings = results.map((output) => {
    const lines = output.split("\n");
    const failure = lines.find((line) => line.includes("✗"));
    if (failure !== undefined) return `One test fails: ${failure.replace("✗", "").trim()} (${lines.at(-1)}).`;
    const rounding = lines.find((line) => line.includes("round half")) ?? lines.at(-1)!;
    return `${lines[0]!.replace(/^\/\/ /, "")} (${lines.length} lines): ${rounding.replace(/^\s*\/\/ (step \d+: )?/, "")}.`;
  });
  return `Done. ${findings.join(" ")}`;
}

function textOfUser(message: Json | undefined): string {
  if (message === undefined) return "";
  if (typeof message.content === "string") return message.content;
  return (Array.isArray(message.content) ? message.content : []).map((block: Json) => (block.type === "text" ? String(block.text) : "")).join("");
}

/** Anthropic's system prompt as text: a string, or text blocks (one carries a cache breakpoint). */
function systemText(system: unknown): unknown {
  return Array.isArray(system) ? system.map((block: Json) => block.text).join("") : system;
}

/** JSON of a request part as a prompt cache compares it: Anthropic's cache_control breakpoints are markers, not content. */
const contentOf = (part: unknown): string | undefined => JSON.stringify(part, (key, value) => (key === "cache_control" ? undefined : value));

/** Messages at the start of `body` equal to the start of an earlier request with the same tools and system. */
function sharedPrefix(body: Json, earlier: ReadonlyArray<Json>, provider: Provider): number {
  const messages = body.messages as unknown[];
  let best = 0;
  for (const previous of earlier) {
    if (contentOf(previous.tools) !== contentOf(body.tools)) continue;
    if (provider === "anthropic" && contentOf(systemText(previous.system)) !== contentOf(systemText(body.system))) continue;
    const before = previous.messages as unknown[];
    let same = 0;
    while (same < Math.min(before.length, messages.length) && contentOf(before[same]) === contentOf(messages[same])) same++;
    best = Math.max(best, same);
  }
  return best;
}

function openAIReply(body: Json, kind: "turn" | "summary", counter: number, cachedMessages: number): Json {
  const messages = body.messages as Json[];
  // prompt_tokens as OpenAI counts them (o200k_base for gpt-4o; its published message and tool formatting).
  const count = (part: Json[]) => countOpenAIChatTokens({ ...body, messages: part } as unknown as OpenAIChatRequest, getEncoding("o200k_base"));
  const prompt = count(messages);
  const cached = cachedMessages === 0 ? 0 : count(messages.slice(0, cachedMessages));
  let message: Json;
  if (kind === "summary") message = { role: "assistant", content: summaryOf(String(messages[0]!.content)), refusal: null };
  else if (messages.at(-1)!.role === "tool") {
    const results = messages.slice(messages.findLastIndex((entry) => entry.role !== "tool") + 1).map((entry) => String(entry.content));
    message = { role: "assistant", content: answerFrom(results), refusal: null };
  } else {
    const call = toolCallFor(textOfUser(messages.findLast((entry) => entry.role === "user")));
    message = { role: "assistant", content: null, refusal: null, tool_calls: [{ id: `call_${counter}`, type: "function", function: { name: call.name, arguments: JSON.stringify(call.input) } }] };
  }
  const completion = aboutTokens(message);
  return {
    id: `chatcmpl-${counter}`,
    object: "chat.completion",
    created: 1_760_000_000 + counter,
    model: body.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: message.tool_calls === undefined ? "stop" : "tool_calls" }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: Math.min(cached, prompt) } },
  };
}

function anthropicReply(body: Json, kind: "turn" | "summary", counter: number, cachedMessages: number): Json {
  const messages = body.messages as Json[];
  const last = messages.at(-1)!;
  const lastBlocks: Json[] = Array.isArray(last.content) ? last.content : [];
  let content: Json[];
  if (kind === "summary") content = [{ type: "text", text: summaryOf(textOfUser(last)) }];
  else if (lastBlocks.some((block) => block.type === "tool_result")) {
    const results = lastBlocks.filter((block) => block.type === "tool_result").map((block) => (typeof block.content === "string" ? block.content : textOfUser(block)));
    content = [{ type: "text", text: answerFrom(results) }];
  } else {
    const call = toolCallFor(textOfUser(last));
    content = [
      { type: "text", text: "Let me check." },
      { type: "tool_use", id: `toolu_${String(counter).padStart(4, "0")}`, name: call.name, input: call.input },
    ];
  }
  const total = aboutTokens(body.system) + aboutTokens(body.tools) + aboutTokens(messages);
  const cached = body.cache_control === undefined || cachedMessages === 0 ? 0 : aboutTokens(body.system) + aboutTokens(body.tools) + aboutTokens(messages.slice(0, cachedMessages));
  return {
    id: `msg_${counter}`,
    type: "message",
    role: "assistant",
    model: body.model,
    content,
    stop_reason: content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: body.cache_control === undefined ? total : 0,
      cache_read_input_tokens: cached,
      cache_creation_input_tokens: body.cache_control === undefined ? 0 : total - cached,
      output_tokens: aboutTokens(content),
    },
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/** Starts the server on 127.0.0.1, on a free port. */
export async function startProviderServer(options: { quiet?: boolean } = {}): Promise<ProviderServer> {
  const received: ReceivedRequest[] = [];
  const problems: string[] = [];
  const earlier: Record<Provider, Json[]> = { openai: [], anthropic: [] };
  let counter = 0;

  const server = createServer(async (request, response) => {
    const provider: Provider | undefined = request.method !== "POST" ? undefined : request.url === "/v1/chat/completions" ? "openai" : request.url === "/v1/messages" ? "anthropic" : undefined;
    const fail = (status: number, found: ReadonlyArray<string>) => {
      const message = found.join("; ");
      problems.push(`${provider ?? request.url}: ${message}`);
      if (options.quiet !== true) console.error(`provider server: refused a ${provider ?? "request"}: ${message}`);
      send(response, status, provider === "anthropic" ? { type: "error", error: { type: "invalid_request_error", message } } : { error: { message, type: "invalid_request_error", param: null, code: null } });
    };
    if (provider === undefined) return fail(404, [`no such endpoint: ${request.method} ${request.url}`]);
    let body: unknown;
    try {
      body = JSON.parse(await readBody(request));
    } catch {
      return fail(400, ["the body is not JSON"]);
    }
    if (!isObject(body)) return fail(400, ["the body is not a JSON object"]);
    const found = provider === "openai" ? openAIProblems(body) : anthropicProblems(body);
    if (found.length > 0) return fail(400, found);

    const messages = body.messages as Json[];
    const kind = body.tools === undefined && messages.length === 1 && textOfUser(messages[0]).startsWith(SUMMARY_PROMPT) ? "summary" : "turn";
    const cachedMessages = kind === "turn" ? sharedPrefix(body, earlier[provider], provider) : 0;
    if (kind === "turn") earlier[provider].push(body);
    received.push({ provider, kind, body, cachedMessages });
    counter++;
    send(response, 200, provider === "openai" ? openAIReply(body, kind, counter, cachedMessages) : anthropicReply(body, kind, counter, cachedMessages));
    return undefined;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    problems,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error === undefined ? resolve() : reject(error)))),
  };
}
