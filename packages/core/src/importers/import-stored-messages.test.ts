import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item } from "../model/item.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { arbitraryInput, returnsOrThrowsInvalidInput } from "./__fixtures__/arbitrary-input.js";
import { catchInvalidInput, errorShape } from "./__fixtures__/catch-invalid-input.js";
import { DEFAULT_STORED_MODE, importStoredMessages, storedMessageMode } from "./import-stored-messages.js";

const AT = "2026-01-01T10:00:00.000Z";

describe("importStoredMessages", () => {
  test.for<{ name: string; message: Record<string, unknown>; expected: Item }>([
    {
      name: "user message with run metadata (seed 002)",
      message: { id: "u1", role: "user", content: "USER_INPUT\nHello", createdAt: AT, mode: "chat", runId: "chat-c1", agentId: "pm" },
      expected: { id: "u1", type: "user", role: "user", text: "USER_INPUT\nHello", createdAt: AT, metadata: { mode: "chat", runId: "chat-c1", agentId: "pm" } },
    },
    {
      name: "numeric id, priority and includeInContext",
      message: { id: 7, role: "user", content: "note", priority: 5, includeInContext: false },
      expected: { id: "7", type: "user", role: "user", text: "note", metadata: { priority: 5, includeInContext: false } },
    },
    {
      name: "user content parts: text joined, images as attachments, other parts kept",
      message: {
        id: "u2",
        role: "user",
        content: [
          { type: "text", text: "Look at" },
          { type: "image_url", image_url: { url: "https://example.com/a.png", detail: "high" } },
          { type: "text", text: "this" },
          { type: "input_audio", input_audio: { data: "UklGR", format: "wav" } },
        ],
      },
      expected: {
        id: "u2",
        type: "user",
        role: "user",
        text: "Look at\nthis",
        attachments: [{ type: "image", url: "https://example.com/a.png", detail: "high" }],
        metadata: { extra: { parts: [{ type: "input_audio", input_audio: { data: "UklGR", format: "wav" } }] } },
      },
    },
    {
      name: "system message",
      message: { id: "s1", role: "system", content: "Old system prompt" },
      expected: { id: "s1", type: "system", role: "system", text: "Old system prompt", metadata: {} },
    },
    {
      name: "assistant with nested tool_calls and null content (seed 003)",
      message: {
        id: "a1",
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.json"}' } },
          { id: "call_2", type: "function", function: { name: "list_dir", arguments: { path: "." } } },
        ],
      },
      expected: {
        id: "a1",
        type: "assistant",
        role: "assistant",
        text: "",
        toolCalls: [
          { id: "call_1", name: "read_file", arguments: '{"path":"a.json"}', kind: "tool" },
          { id: "call_2", name: "list_dir", arguments: '{"path":"."}', kind: "tool" },
        ],
        metadata: {},
      },
    },
    {
      name: "assistant with flat tool_calls; broken argument JSON kept verbatim",
      message: { id: "a2", role: "assistant", content: "Checking.", tool_calls: [{ id: "call_3", name: "search", arguments: '{"q": "unterminated' }] },
      expected: {
        id: "a2",
        type: "assistant",
        role: "assistant",
        text: "Checking.",
        toolCalls: [{ id: "call_3", name: "search", arguments: '{"q": "unterminated', kind: "tool" }],
        metadata: {},
      },
    },
    {
      name: "assistant with an empty tool_calls list",
      message: { id: "a3", role: "assistant", content: "Done.", tool_calls: [] },
      expected: { id: "a3", type: "assistant", role: "assistant", text: "Done.", toolCalls: [], metadata: {} },
    },
    {
      name: "persisted LLM error (partType error)",
      message: { id: "e1", role: "assistant", content: "LLM_TIMEOUT: the model did not answer", partType: "error", mode: "run", runId: "r1" },
      expected: { id: "e1", type: "error", role: "assistant", text: "LLM_TIMEOUT: the model did not answer", metadata: { mode: "run", runId: "r1" } },
    },
    {
      name: "persisted error (error: true)",
      message: { id: "e2", role: "assistant", content: "failed", error: true },
      expected: { id: "e2", type: "error", role: "assistant", text: "failed", metadata: {} },
    },
    {
      name: "tool result (seed 003)",
      message: { id: "t1", role: "tool", content: '{"port":80}', tool_call_id: "call_1", toolName: "read_file", duration: 12, partType: "tool_result", createdAt: AT },
      expected: { id: "t1", type: "tool-result", role: "tool", callId: "call_1", toolName: "read_file", output: '{"port":80}', isError: false, durationMs: 12, kind: "tool", createdAt: AT, metadata: {} },
    },
    {
      name: "failed tool result with text parts and null content",
      message: { id: "t2", role: "tool", content: [{ type: "text", text: "ENOENT" }, { type: "text", text: "a.json" }], tool_call_id: "call_2", is_error: true },
      expected: { id: "t2", type: "tool-result", role: "tool", callId: "call_2", output: "ENOENT\na.json", isError: true, kind: "tool", metadata: {} },
    },
    {
      name: "tool result with null content and error: true",
      message: { id: "t3", role: "tool", content: null, tool_call_id: "call_3", error: true },
      expected: { id: "t3", type: "tool-result", role: "tool", callId: "call_3", output: "", isError: true, kind: "tool", metadata: {} },
    },
    {
      name: "summary with an inclusive range",
      message: { id: "sum1", kind: "summary", role: "system", content: "Earlier: the user set up the project.", summary: { fromId: "u1", toId: "t3" } },
      expected: { id: "sum1", type: "summary", role: "system", text: "Earlier: the user set up the project.", coveredIds: [], fromId: "u1", toId: "t3", metadata: {} },
    },
    {
      name: "summary with a messageIds list (seed 004)",
      message: { id: "sum2", kind: "summary", content: "Summary", messageIds: ["u1", 2] },
      expected: { id: "sum2", type: "summary", role: "system", text: "Summary", coveredIds: ["u1", "2"], metadata: {} },
    },
  ])("$name", ({ message, expected }) => {
    expect(importStoredMessages([message])).toStrictEqual([expected]);
  });

  test.for<{ name: string; message: Record<string, unknown>; expected: Item }>([
    {
      name: "a completed run (seed 001's task_completed), with the run metadata",
      message: { id: "end1", role: "assistant", partType: "task_completed", content: '{"result":"Released v2.4.2"}', createdAt: AT, mode: "run", runId: "r1", agentId: "rel" },
      expected: { id: "end1", type: "task-completed", role: "assistant", text: '{"result":"Released v2.4.2"}', createdAt: AT, metadata: { mode: "run", runId: "r1", agentId: "rel" } },
    },
    {
      name: "an abandoned run: reason is the item's, the partial result its text",
      message: { id: "end2", role: "assistant", partType: "task_abandoned", reason: "budget cut", content: '{"partialResult":"half the notes"}' },
      expected: { id: "end2", type: "task-abandoned", role: "assistant", reason: "budget cut", text: '{"partialResult":"half the notes"}', metadata: {} },
    },
    {
      name: "a terminated run: terminatedBy is the item's",
      message: { id: "end3", role: "assistant", partType: "task_terminated", terminatedBy: "user", content: "The run was stopped before it finished." },
      expected: { id: "end3", type: "task-terminated", role: "assistant", terminatedBy: "user", text: "The run was stopped before it finished.", metadata: {} },
    },
    {
      name: "an ending without its optional fields, content as text parts",
      message: { id: "end4", role: "assistant", partType: "task_terminated", content: [{ type: "text", text: "Stopped." }] },
      expected: { id: "end4", type: "task-terminated", role: "assistant", text: "Stopped.", metadata: {} },
    },
    {
      name: "fields an ending does not use are kept in metadata.extra (a completed run's reason, an error flag)",
      message: { id: "end5", role: "assistant", partType: "task_completed", content: "{}", reason: "not read here", error: true, tool_calls: [] },
      expected: { id: "end5", type: "task-completed", role: "assistant", text: "{}", metadata: { extra: { reason: "not read here", error: true, tool_calls: [] } } },
    },
    {
      name: "a message builder record whose body is an ending",
      message: { id: "end6", createdAt: AT, body: { role: "assistant", partType: "task_abandoned", reason: "out of scope", content: "{}" } },
      expected: { id: "end6", type: "task-abandoned", role: "assistant", reason: "out of scope", text: "{}", createdAt: AT, metadata: {} },
    },
    {
      name: "a partType ending on a user message is not an ending: kept in metadata.extra",
      message: { id: "u9", role: "user", partType: "task_completed", content: "done?" },
      expected: { id: "u9", type: "user", role: "user", text: "done?", metadata: { extra: { partType: "task_completed" } } },
    },
  ])("run endings: $name", ({ message, expected }) => {
    expect(importStoredMessages([message])).toStrictEqual([expected]);
  });

  test.for<{ name: string; message: Record<string, unknown>; path: Array<string | number>; field: string; says: string }>([
    { name: "a reason that is not a string", message: { id: "e1", role: "assistant", partType: "task_abandoned", reason: 42, content: "{}" }, path: ["reason"], field: "reason", says: "expected a string, got 42" },
    {
      name: "a terminatedBy that is not a string",
      message: { id: "e1", role: "assistant", partType: "task_terminated", terminatedBy: ["user"], content: "" },
      path: ["terminatedBy"],
      field: "terminatedBy",
      says: "expected a string",
    },
    { name: "content that is a number", message: { id: "e1", role: "assistant", partType: "task_completed", content: 7 }, path: ["content"], field: "content", says: "" },
    {
      name: "an ending that carries tool calls",
      message: { id: "e1", role: "assistant", partType: "task_completed", content: "{}", tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
      path: ["tool_calls"],
      field: "tool_calls",
      says: "a task_completed record carries no tool calls",
    },
  ])("run endings: rejects $name, naming index, id and field", ({ message, path, field, says }) => {
    const error = catchInvalidInput(() => importStoredMessages([{ id: "u1", role: "user", content: "go" }, message]));
    expect(errorShape(error)).toStrictEqual({ name: "InvalidInputError", code: "INPUT_INVALID", source: "stored message", index: 1, id: "e1", path });
    expect(error.issues).toHaveLength(1);
    expect(error.message).toContain(`stored message[1] (id "e1"), field ${field}: ${says}`);
  });

  test("a run's ending renders as such, after the run's messages", async () => {
    const items = importStoredMessages([
      { id: "u1", role: "user", content: "USER_INPUT\nShip it", mode: "run", runId: "r1" },
      { id: "a1", role: "assistant", content: "Shipped.", mode: "run", runId: "r1" },
      { id: "end", role: "assistant", partType: "task_terminated", terminatedBy: "user", content: "Stopped.", mode: "run", runId: "r1" },
    ]);
    const { request } = await createPipeline().build(items, { renderer: "openai", order: "input" });
    // A request may not end on an assistant message: the renderer adds its "Continue." turn after the record.
    expect(request.messages.slice(-3)).toStrictEqual([
      { role: "assistant", content: "Shipped." },
      { role: "assistant", content: "Task terminated by user:\nStopped." },
      { role: "user", content: "Continue." },
    ]);
  });

  test.for<{ name: string; message: Record<string, unknown>; metadata: Item["metadata"]; mode: string }>([
    { name: "no mode: read as agent, and none is written into the metadata", message: { id: "u1", role: "user", content: "hi" }, metadata: {}, mode: "agent" },
    { name: "no mode, other run metadata kept", message: { id: "u2", role: "user", content: "hi", runId: "chat-c1" }, metadata: { runId: "chat-c1" }, mode: "agent" },
    { name: "chat, as stored", message: { id: "u3", role: "user", content: "hi", mode: "chat" }, metadata: { mode: "chat" }, mode: "chat" },
    { name: "run, as stored", message: { id: "a1", role: "assistant", content: "done", mode: "run", runId: "r1" }, metadata: { mode: "run", runId: "r1" }, mode: "run" },
    { name: "a mode ctxpipe does not know, as stored", message: { id: "u4", role: "user", content: "hi", mode: "review" }, metadata: { mode: "review" }, mode: "review" },
  ])("mode: $name", ({ message, metadata, mode }) => {
    const [item] = importStoredMessages([message]);
    expect(item?.metadata).toEqual(metadata);
    expect(item === undefined ? undefined : storedMessageMode(item)).toBe(mode);
  });

  test("the default mode is agent, and an item without metadata reads as it", () => {
    expect(DEFAULT_STORED_MODE).toBe("agent");
    expect(storedMessageMode({})).toBe("agent");
  });

  test("keeps unknown fields verbatim in metadata.extra, nested ones by field path", () => {
    const ui = { collapsed: true, tags: ["a", "b"] };
    const [item] = importStoredMessages([
      {
        id: "a1",
        role: "assistant",
        content: [{ type: "text", text: "Hi", annotations: [] }, { type: "refusal", refusal: "no" }],
        tool_calls: [{ id: "c1", index: 0, type: "function", function: { name: "f", arguments: "{}", strict: true } }],
        ui,
        partType: "text",
        toolName: "unused on an assistant message",
      },
    ]);
    expect(item?.metadata).toStrictEqual({
      extra: {
        ui: { collapsed: true, tags: ["a", "b"] },
        partType: "text",
        toolName: "unused on an assistant message",
        "content[0].annotations": [],
        "tool_calls[0].index": 0,
        "tool_calls[0].function.strict": true,
        parts: [{ type: "refusal", refusal: "no" }],
      },
    });
    expect(item?.metadata.extra?.ui).toBe(ui);
  });

  test.for<{ name: string; input: unknown; index: number; id: string | undefined; path: Array<string | number>; field: string }>([
    { name: "input that is not an array", input: { id: "m1" }, index: 0, id: undefined, path: [], field: "(record)" },
    { name: "a null record", input: [null], index: 0, id: undefined, path: [], field: "(record)" },
    { name: "a number where a record is expected", input: [{ id: "ok", role: "user", content: "" }, 42], index: 1, id: undefined, path: [], field: "(record)" },
    { name: "a missing id", input: [{ role: "user", content: "hi" }], index: 0, id: undefined, path: ["id"], field: "id" },
    { name: "an empty id", input: [{ id: "", role: "user", content: "hi" }], index: 0, id: undefined, path: ["id"], field: "id" },
    { name: "content of the wrong type", input: [{ id: "m1", role: "user", content: 42 }], index: 0, id: "m1", path: ["content"], field: "content" },
    { name: "a content part that is not an object", input: [{ id: "m1", role: "user", content: ["hi"] }], index: 0, id: "m1", path: ["content", 0], field: "content[0]" },
    { name: "a text part without text", input: [{ id: "m1", role: "user", content: [{ type: "text" }] }], index: 0, id: "m1", path: ["content", 0, "text"], field: "content[0].text" },
    {
      name: "an image part with an unknown detail",
      input: [{ id: "m1", role: "user", content: [{ type: "image_url", image_url: { url: "https://x", detail: "max" } }] }],
      index: 0,
      id: "m1",
      path: ["content", 0, "image_url", "detail"],
      field: "content[0].image_url.detail",
    },
    { name: "an unknown role", input: [{ id: "m1", role: "robot", content: "beep" }], index: 0, id: "m1", path: ["role"], field: "role" },
    { name: "a missing role", input: [{ id: "m1", content: "beep" }], index: 0, id: "m1", path: ["role"], field: "role" },
    { name: "a tool message without tool_call_id", input: [{ id: "t1", role: "tool", content: "ok" }], index: 0, id: "t1", path: ["tool_call_id"], field: "tool_call_id" },
    {
      name: "a tool call without a function name",
      input: [{ id: "a1", role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { arguments: "{}" } }] }],
      index: 0,
      id: "a1",
      path: ["tool_calls", 0, "function", "name"],
      field: "tool_calls[0].function.name",
    },
    {
      name: "a flat tool call without a name",
      input: [{ id: "a1", role: "assistant", tool_calls: [{ id: "c1", arguments: "{}" }] }],
      index: 0,
      id: "a1",
      path: ["tool_calls", 0, "name"],
      field: "tool_calls[0].name",
    },
    {
      name: "a tool call without an id",
      input: [{ id: "a1", role: "assistant", tool_calls: [{ type: "function", function: { name: "f", arguments: "{}" } }] }],
      index: 0,
      id: "a1",
      path: ["tool_calls", 0, "id"],
      field: "tool_calls[0].id",
    },
    {
      name: "tool call arguments that are a number",
      input: [{ id: "a1", role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: 3 } }] }],
      index: 0,
      id: "a1",
      path: ["tool_calls", 0, "function", "arguments"],
      field: "tool_calls[0].function.arguments",
    },
    { name: "tool_calls that is not an array", input: [{ id: "a1", role: "assistant", tool_calls: {} }], index: 0, id: "a1", path: ["tool_calls"], field: "tool_calls" },
    { name: "a tool_calls entry that is null", input: [{ id: "a1", role: "assistant", tool_calls: [null] }], index: 0, id: "a1", path: ["tool_calls", 0], field: "tool_calls[0]" },
    { name: "a negative duration", input: [{ id: "t1", role: "tool", tool_call_id: "c1", content: "", duration: -1 }], index: 0, id: "t1", path: ["duration"], field: "duration" },
    { name: "is_error that is not a boolean", input: [{ id: "t1", role: "tool", tool_call_id: "c1", content: "", is_error: "yes" }], index: 0, id: "t1", path: ["is_error"], field: "is_error" },
    { name: "a priority that is not a number", input: [{ id: "m1", role: "user", content: "", priority: "high" }], index: 0, id: "m1", path: ["priority"], field: "priority" },
    { name: "a summary without a range or list", input: [{ id: "s1", kind: "summary", content: "S" }], index: 0, id: "s1", path: ["summary"], field: "summary" },
    { name: "a summary range without toId", input: [{ id: "s1", kind: "summary", content: "S", summary: { fromId: "u1" } }], index: 0, id: "s1", path: ["summary", "toId"], field: "summary.toId" },
  ])("rejects $name", ({ input, index, id, path, field }) => {
    const error = catchInvalidInput(() => importStoredMessages(input));
    expect(errorShape(error)).toStrictEqual({ name: "InvalidInputError", code: "INPUT_INVALID", source: "stored message", index, id, path });
    expect(error.issues).toHaveLength(1);
    expect(error.message).toContain(`stored message[${index}]`);
    if (id !== undefined) expect(error.message).toContain(`(id "${id}")`);
    expect(error.message).toContain(`field ${field}:`);
  });

  test("lists every problem of the input in one error", () => {
    const error = catchInvalidInput(() =>
      importStoredMessages([
        { id: "u1", role: "user", content: "fine" },
        null,
        { role: "tool", content: "ok" },
        { id: "a1", role: "assistant", tool_calls: [{ id: "c1", type: "function", function: {} }, { id: "", name: "g" }] },
        { id: "x1", role: "robot", content: 1 },
      ]),
    );
    expect(error.issues).toStrictEqual([
      { index: 1, id: undefined, path: [], message: "expected an object, got null" },
      { index: 2, id: undefined, path: ["id"], message: "a stored message needs an id" },
      { index: 2, id: undefined, path: ["tool_call_id"], message: "a tool message needs the tool_call_id of the call it answers" },
      { index: 3, id: "a1", path: ["tool_calls", 0, "function", "name"], message: "a tool call needs a function name" },
      { index: 4, id: "x1", path: ["role"], message: 'expected one of "user", "assistant", "system", "developer", "tool", got "robot"' },
    ]);
    expect(errorShape(error)).toStrictEqual({ name: "InvalidInputError", code: "INPUT_INVALID", source: "stored message", index: 1, id: undefined, path: [] });
    expect(error.message.split("\n")).toHaveLength(5);
  });

  test("imports a stored agent tool loop that the pipeline builds", async () => {
    const items = importStoredMessages([
      { id: "u1", role: "user", content: "Compare the two config files.", createdAt: "2026-01-01T10:00:00.000Z", mode: "agent" },
      {
        id: "a1",
        role: "assistant",
        content: null,
        createdAt: "2026-01-01T10:00:01.000Z",
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "read_file", arguments: '{"path":"a.json"}' } },
          { id: "call_b", name: "read_file", arguments: { path: "b.json" } },
        ],
      },
      { id: "t1", role: "tool", content: '{"port":80}', tool_call_id: "call_a", toolName: "read_file", createdAt: "2026-01-01T10:00:02.000Z" },
      { id: "t2", role: "tool", content: "ENOENT", tool_call_id: "call_b", is_error: true, createdAt: "2026-01-01T10:00:03.000Z" },
      { id: "a2", role: "assistant", content: "b.json is missing.", createdAt: "2026-01-01T10:00:04.000Z" },
    ]);
    const result = await createPipeline().build(items);
    expect(result.request.messages).toStrictEqual([
      { role: "user", content: "Compare the two config files." },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "read_file", arguments: '{"path":"a.json"}' } },
          { id: "call_b", type: "function", function: { name: "read_file", arguments: '{"path":"b.json"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: '{"port":80}' },
      { role: "tool", tool_call_id: "call_b", content: "Error: ENOENT" },
      { role: "assistant", content: "b.json is missing." },
      // The history ends with the assistant: repair-orphans asks it to continue (OAI-017, ANT-015, GEM-016).
      { role: "user", content: "Continue." },
    ]);
    expect(result.includedIds).toStrictEqual(["u1", "a1", "t1", "t2", "a2"]);
  });

  test.for<{ name: string; record: Record<string, unknown>; expected: Item[] }>([
    {
      name: "role developer, as a system message",
      record: { id: "d1", role: "developer", content: "Answer in French." },
      expected: [{ id: "d1", type: "system", role: "system", text: "Answer in French.", metadata: {} }],
    },
    {
      name: "a call and a result with an empty id (servers that give calls none)",
      record: { id: "a1", role: "assistant", content: null, tool_calls: [{ id: "", type: "function", function: { name: "ls", arguments: "{}" } }] },
      expected: [{ id: "a1", type: "assistant", role: "assistant", text: "", toolCalls: [{ id: "", name: "ls", arguments: "{}", kind: "tool" }], metadata: {} }],
    },
    {
      name: "a tool message with an empty tool_call_id",
      record: { id: "t1", role: "tool", tool_call_id: "", content: "a.ts" },
      expected: [{ id: "t1", type: "tool-result", role: "tool", callId: "", output: "a.ts", isError: false, kind: "tool", metadata: {} }],
    },
    {
      name: "a MessageEntity whose body is the message object; the record's fields come first",
      record: { id: "m1", createdAt: AT, body: { id: "inner", role: "user", content: "hi", segments: [], mode: "chat" } },
      expected: [{ id: "m1", type: "user", role: "user", text: "hi", createdAt: AT, metadata: { mode: "chat", extra: { "body.id": "inner", "body.segments": [] } } }],
    },
    {
      name: "a MessageEntity whose body is JSON text, with camelCase toolCalls",
      record: { id: "m2", body: JSON.stringify({ role: "assistant", content: "Looking.", toolCalls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }] }) },
      expected: [{ id: "m2", type: "assistant", role: "assistant", text: "Looking.", toolCalls: [{ id: "c1", name: "read", arguments: "{}", kind: "tool" }], metadata: {} }],
    },
    {
      name: "a MessageEntity with Anthropic-style tool_use parts",
      record: { id: "m3", body: { role: "assistant", content: [{ type: "text", text: "Reading." }, { type: "tool_use", id: "call_1", name: "read", input: { path: "a" } }] } },
      expected: [{ id: "m3", type: "assistant", role: "assistant", text: "Reading.", toolCalls: [{ id: "call_1", name: "read", arguments: '{"path":"a"}', kind: "tool" }], metadata: {} }],
    },
    {
      name: "a tool message whose content part carries the tool_use_id",
      record: { id: "m4", body: { role: "tool", content: [{ tool_use_id: "call_1", content: "file a" }] } },
      expected: [{ id: "m4", type: "tool-result", role: "tool", callId: "call_1", output: "file a", isError: false, kind: "tool", metadata: {} }],
    },
    {
      name: "a tool message whose content object carries the tool_use_id",
      record: { id: "m5", role: "tool", content: { tool_use_id: "call_1", content: [{ type: "text", text: "boom" }], is_error: true } },
      expected: [{ id: "m5", type: "tool-result", role: "tool", callId: "call_1", output: "boom", isError: true, kind: "tool", metadata: {} }],
    },
    {
      name: "a tool message with two tool_result parts, one item each",
      record: { id: "m6", role: "tool", content: [{ type: "tool_result", tool_use_id: "c1", content: "one" }, { type: "tool_result", tool_use_id: "c2", content: "two" }] },
      expected: [
        { id: "m6.0", type: "tool-result", role: "tool", callId: "c1", output: "one", isError: false, kind: "tool", metadata: {} },
        { id: "m6.1", type: "tool-result", role: "tool", callId: "c2", output: "two", isError: false, kind: "tool", metadata: {} },
      ],
    },
  ])("imports $name", ({ record, expected }) => {
    expect(importStoredMessages([record])).toStrictEqual(expected);
  });

  test.for<{ name: string; record: Record<string, unknown>; path: Array<string | number>; message: string }>([
    { name: "a body that is not JSON", record: { id: "m1", body: "hello" }, path: ["body"], message: "expected the message object or its JSON text, got text that is not JSON" },
    { name: "a body that is JSON of no object", record: { id: "m1", body: "[1]" }, path: ["body"], message: "expected the message object or its JSON text, got an array" },
    { name: "a body without a role", record: { id: "m1", body: { content: "hi" } }, path: ["body", "role"], message: "a stored message needs a role" },
    { name: "a tool_use part without a name", record: { id: "m1", body: { role: "assistant", content: [{ type: "tool_use", id: "c1" }] } }, path: ["body", "content", 0, "name"], message: "a tool_use part needs the tool name" },
  ])("rejects a MessageEntity with $name, naming the field", ({ record, path, message }) => {
    const error = catchInvalidInput(() => importStoredMessages([record]));
    expect(error.issues).toStrictEqual([{ index: 0, id: "m1", path, message }]);
  });

  test("the message builder's entities with calls and results stored without ids build, paired by position", async () => {
    const items = importStoredMessages([
      { id: "u1", body: { role: "user", content: "List and count.", segments: [] } },
      { id: "a1", body: JSON.stringify({ role: "assistant", content: null, tool_calls: [{ id: "", type: "function", function: { name: "ls", arguments: "{}" } }, { id: "", type: "function", function: { name: "wc", arguments: "{}" } }] }) },
      { id: "t1", body: { role: "tool", tool_call_id: "", content: "a.ts b.ts" } },
      { id: "t2", body: { role: "tool", tool_call_id: "", content: "2" } },
      { id: "d1", body: { role: "developer", content: "Be brief." } },
    ]);
    const result = await createPipeline().build(items);
    expect(result.request.messages.slice(0, 4)).toStrictEqual([
      { role: "user", content: "List and count." },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "a1_1", type: "function", function: { name: "ls", arguments: "{}" } },
          { id: "a1_2", type: "function", function: { name: "wc", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "a1_1", content: "a.ts b.ts" },
      { role: "tool", tool_call_id: "a1_2", content: "2" },
    ]);
    expect(result.report.entries.map((entry) => [entry.id, entry.decision])).toStrictEqual([
      ["u1", "kept"],
      ["a1", "repaired"],
      ["t1", "repaired"],
      ["t2", "repaired"],
      ["d1", "kept"],
    ]);
  });

  test("a partType that is an object without a prototype is no ending and no TypeError (the property below found it)", () => {
    const record = { id: "a1", role: "assistant", content: "Done.", partType: Object.create(null) as object };
    expect(() => returnsOrThrowsInvalidInput(() => importStoredMessages([record]))).not.toThrow();
    expect(importStoredMessages([{ ...record, partType: "task_completed" }])[0]).toMatchObject({ type: "task-completed" });
  });

  test("any input either imports or throws InvalidInputError, never a TypeError", () => {
    const keys = ["id", "body", "toolCalls", "tool_use_id", "input", "role", "content", "createdAt", "mode", "runId", "agentId", "includeInContext", "priority", "partType", "toolName", "duration", "tool_calls", "tool_call_id", "is_error", "error", "kind", "summary", "coveredIds", "messageIds", "type", "text", "image_url", "url", "detail", "function", "name", "arguments", "fromId", "toId"];
    const labels = ["user", "assistant", "system", "developer", "tool", "summary", "error", "tool_result", "tool_use", "tool_use_id", "text", "image_url", "function", "low", "2026-01-01T10:00:00.000Z"];
    fc.assert(fc.property(arbitraryInput(keys, labels), (input) => returnsOrThrowsInvalidInput(() => importStoredMessages(input))), { numRuns: 500 });
  });
});
