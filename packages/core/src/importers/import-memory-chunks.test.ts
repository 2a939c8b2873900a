import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item } from "../model/item.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { arbitraryInput, returnsOrThrowsInvalidInput } from "./__fixtures__/arbitrary-input.js";
import { catchInvalidInput, errorShape } from "./__fixtures__/catch-invalid-input.js";
import { importMemoryChunks } from "./import-memory-chunks.js";

const CREATED = 1767261600000; // 2026-01-01T10:00:00.000Z
const AT = "2026-01-01T10:00:00.000Z";

describe("importMemoryChunks", () => {
  test.for<{ name: string; chunk: Record<string, unknown>; expected: Item }>([
    {
      name: "SYSTEM with priority and epoch createdAt",
      chunk: { id: "c1", type: "SYSTEM", content: { type: "TEXT", text: "You are a planner." }, priority: 1000, metadata: { createdAt: CREATED } },
      expected: { id: "c1", type: "system", role: "system", text: "You are a planner.", createdAt: AT, metadata: { priority: 1000 } },
    },
    {
      name: "AGENT role user",
      chunk: { id: "c2", type: "AGENT", content: { type: "TEXT", role: "user", text: "Find the bug." } },
      expected: { id: "c2", type: "user", role: "user", text: "Find the bug.", metadata: {} },
    },
    {
      name: "AGENT role assistant, role on the chunk and string content",
      chunk: { id: "c3", type: "AGENT", role: "assistant", content: "On it." },
      expected: { id: "c3", type: "assistant", role: "assistant", text: "On it.", toolCalls: [], metadata: {} },
    },
    {
      name: "AGENT clarification",
      chunk: { id: "c4", type: "AGENT", content: { role: "assistant", action: "clarification", text: "Which file?" } },
      expected: { id: "c4", type: "assistant", role: "assistant", text: "Which file?", toolCalls: [], clarification: true, metadata: {} },
    },
    {
      name: "WORKFLOW tool_call with seed 001 attribute names; the text is the arguments",
      chunk: { id: "c5", type: "WORKFLOW", content: { action: "tool_call", tool: "read_file", call_id: "call_123", status: "pending", text: '{"path": "/src/main.ts"}' } },
      expected: {
        id: "c5",
        type: "assistant",
        role: "assistant",
        text: "",
        toolCalls: [{ id: "call_123", name: "read_file", arguments: '{"path": "/src/main.ts"}', kind: "tool", status: "pending" }],
        metadata: {},
      },
    },
    {
      name: "WORKFLOW skill_call with team9 names and an arguments object",
      chunk: { id: "c6", type: "WORKFLOW", content: { type: "TEXT", action: "skill_call", skillName: "code_review", callId: "call_456", args: { code: "x" } } },
      expected: {
        id: "c6",
        type: "assistant",
        role: "assistant",
        text: "",
        toolCalls: [{ id: "call_456", name: "code_review", arguments: '{"code":"x"}', kind: "skill" }],
        metadata: {},
      },
    },
    {
      name: "DELEGATION spawn (agentType, no action): the remaining content is the task",
      chunk: { id: "c7", type: "DELEGATION", content: { subagent_id: "agent_123", agent_type: "researcher", task: "Search for..." } },
      expected: { id: "c7", type: "subagent-spawn", role: "assistant", subagentId: "agent_123", agentType: "researcher", text: '{"task":"Search for..."}', metadata: {} },
    },
    {
      name: "DELEGATION message_subagent (team9 subAgentId)",
      chunk: { id: "c8", type: "DELEGATION", content: { type: "TEXT", action: "message_subagent", subAgentId: "agent_123", text: "Keep digging." } },
      expected: { id: "c8", type: "subagent-message", role: "assistant", subagentId: "agent_123", text: "Keep digging.", metadata: {} },
    },
    {
      name: "DELEGATION subagent result (success present)",
      chunk: { id: "c9", type: "DELEGATION", content: { subagentId: "agent_123", success: false, text: "Nothing found." } },
      expected: { id: "c9", type: "subagent-result", role: "user", subagentId: "agent_123", success: false, text: "Nothing found.", metadata: {} },
    },
    {
      name: "DELEGATION subagent_error action",
      chunk: { id: "c10", type: "DELEGATION", content: { action: "subagent_error", subAgentId: "agent_9", text: "Crashed." } },
      expected: { id: "c10", type: "subagent-result", role: "user", subagentId: "agent_9", success: false, text: "Crashed.", metadata: {} },
    },
    {
      name: "DELEGATION parent agent message",
      chunk: { id: "c11", type: "DELEGATION", content: { parent_agent_id: "agent_000", text: "Report back by noon." } },
      expected: { id: "c11", type: "parent-message", role: "user", parentAgentId: "agent_000", text: "Report back by noon.", metadata: {} },
    },
    {
      name: "ENVIRONMENT tool result",
      chunk: { id: "c12", type: "ENVIRONMENT", content: { source: "tool", toolName: "read_file", callId: "call_123", success: true, text: "file body" } },
      expected: { id: "c12", type: "tool-result", role: "tool", callId: "call_123", toolName: "read_file", output: "file body", isError: false, kind: "tool", metadata: {} },
    },
    {
      name: "ENVIRONMENT tool error (seed 001: success false, error true)",
      chunk: { id: "c13", type: "ENVIRONMENT", content: { tool: "read_file", call_id: "call_123", success: false, error: true, text: "File not found" } },
      expected: { id: "c13", type: "tool-result", role: "tool", callId: "call_123", toolName: "read_file", output: "File not found", isError: true, kind: "tool", metadata: {} },
    },
    {
      name: "ENVIRONMENT team9 tool_error: the error message stays in the text",
      chunk: { id: "c14", type: "ENVIRONMENT", content: { type: "TEXT", source: "tool_error", toolName: "read_file", callId: "call_7", error: "ENOENT" } },
      expected: { id: "c14", type: "tool-result", role: "tool", callId: "call_7", toolName: "read_file", output: '{"error":"ENOENT"}', isError: true, kind: "tool", metadata: {} },
    },
    {
      name: "ENVIRONMENT skill result",
      chunk: { id: "c15", type: "ENVIRONMENT", content: { skill: "code_review", call_id: "call_456", success: true, text: "LGTM" } },
      expected: { id: "c15", type: "tool-result", role: "tool", callId: "call_456", toolName: "code_review", output: "LGTM", isError: false, kind: "skill", metadata: {} },
    },
    {
      name: "WORKING_FLOW progress summary (seed 001 attributes)",
      chunk: { id: "c16", type: "WORKING_FLOW", content: { compacted_at: "1703000000000", original_count: 15, text: "## Progress Summary" } },
      expected: { id: "c16", type: "summary", role: "system", text: "## Progress Summary", coveredIds: [], compactedAt: 1703000000000, originalCount: 15, metadata: {} },
    },
    {
      name: "WORKING_FLOW COMPACTED subType with team9 metadata.custom",
      chunk: { id: "c17", type: "WORKING_FLOW", subType: "COMPACTED", content: { type: "TEXT", text: "Summary" }, metadata: { createdAt: CREATED, custom: { compactedAt: 1703000000000, originalChunkCount: 4 } } },
      expected: { id: "c17", type: "summary", role: "system", text: "Summary", coveredIds: [], compactedAt: 1703000000000, originalCount: 4, createdAt: AT, metadata: {} },
    },
    {
      name: "WORKING_FLOW todo_set (team9: subType todo in metadata.custom)",
      chunk: { id: "c18", type: "WORKING_FLOW", content: { type: "TEXT", action: "todo_set", todos: [{ id: 1, title: "Fix" }] }, metadata: { createdAt: CREATED, custom: { subType: "todo" } } },
      expected: { id: "c18", type: "todo-update", role: "assistant", action: "todo_set", text: '{"todos":[{"id":1,"title":"Fix"}]}', createdAt: AT, metadata: {} },
    },
    {
      name: "WORKING_FLOW todos without an action",
      chunk: { id: "c19", type: "WORKING_FLOW", content: { todos: [] } },
      expected: { id: "c19", type: "todo-update", role: "assistant", action: "todo_set", text: '{"todos":[]}', metadata: {} },
    },
    {
      name: "WORKING_FLOW THINKING",
      chunk: { id: "c20", type: "WORKING_FLOW", subType: "THINKING", content: "Considering options" },
      expected: { id: "c20", type: "thinking", role: "assistant", text: "Considering options", metadata: {} },
    },
    {
      name: "WORKING_FLOW USER intervention",
      chunk: { id: "c21", type: "WORKING_FLOW", content: { subtype: "USER", text: "Stop, use the other API" } },
      expected: { id: "c21", type: "user-intervention", role: "user", text: "Stop, use the other API", metadata: {} },
    },
    {
      name: "OUTPUT task_completed: the result fields are the text",
      chunk: { id: "c22", type: "OUTPUT", content: { type: "TEXT", action: "task_completed", result: "done", summary: "ok" } },
      expected: { id: "c22", type: "task-completed", role: "assistant", text: '{"result":"done","summary":"ok"}', metadata: {} },
    },
    {
      name: "OUTPUT task_abandoned with reason",
      chunk: { id: "c23", type: "OUTPUT", content: { action: "task_abandoned", reason: "impossible", partialResult: "half" } },
      expected: { id: "c23", type: "task-abandoned", role: "assistant", reason: "impossible", text: '{"partialResult":"half"}', metadata: {} },
    },
    {
      name: "OUTPUT task_terminated: terminatedBy is an attribute, reason stays in the text",
      chunk: { id: "c24", type: "OUTPUT", content: { terminated_by: "user", reason: "changed mind" } },
      expected: { id: "c24", type: "task-terminated", role: "assistant", terminatedBy: "user", text: '{"reason":"changed mind"}', metadata: {} },
    },
  ])("$name", ({ chunk, expected }) => {
    expect(importMemoryChunks([chunk])).toStrictEqual([expected]);
  });

  test.for<{ name: string; chunk: Record<string, unknown>; expected: Item }>([
    {
      name: "a SYSTEM chunk's metadata.priority is its priority",
      chunk: { id: "c1", type: "SYSTEM", content: "Rules.", metadata: { priority: 500, createdAt: CREATED } },
      expected: { id: "c1", type: "system", role: "system", text: "Rules.", createdAt: AT, metadata: { priority: 500 } },
    },
    {
      name: "the chunk's own priority wins over its metadata's",
      chunk: { id: "c1", type: "SYSTEM", content: "Rules.", priority: 900, metadata: { priority: 500 } },
      expected: { id: "c1", type: "system", role: "system", text: "Rules.", metadata: { priority: 900, extra: { "metadata.priority": 500 } } },
    },
  ])("$name", ({ chunk, expected }) => {
    expect(importMemoryChunks([chunk])).toStrictEqual([expected]);
  });

  test.for<{ name: string; chunk: Record<string, unknown>; type: Item["type"]; text: string }>([
    {
      name: "a chunk type of the application's own (assistant by default)",
      chunk: { id: "c1", type: "MEMORY", content: { facts: ["likes tea"] }, metadata: { createdAt: CREATED, priority: 3, custom: { myCustomType: true } } },
      type: "assistant",
      text: '{"facts":["likes tea"]}',
    },
    {
      name: "a chunk type of its own with role user",
      chunk: { id: "c2", type: "FEEDBACK", role: "user", content: { type: "TEXT", text: "Too long." }, metadata: { createdAt: CREATED } },
      type: "user",
      text: "Too long.",
    },
    {
      name: "an unknown WORKING_FLOW sub-type",
      chunk: { id: "c3", type: "WORKING_FLOW", subType: "PLAN", content: "1. read 2. fix", metadata: { createdAt: CREATED } },
      type: "assistant",
      text: "1. read 2. fix",
    },
    {
      name: "an unknown WORKING_FLOW sub-type in the content, role system",
      chunk: { id: "c4", type: "WORKING_FLOW", content: { subType: "AGENT_ACTION", role: "system", text: "Switched mode." } },
      type: "system",
      text: "Switched mode.",
    },
  ])("imports $name, keeping the chunk as stored in metadata.extra.memoryChunk", ({ chunk, type, text }) => {
    const metadata = chunk.metadata as { createdAt?: number; priority?: number } | undefined;
    const expected = {
      id: chunk.id,
      type,
      role: type,
      text,
      ...(type === "assistant" ? { toolCalls: [] } : {}),
      ...(metadata?.createdAt === undefined ? {} : { createdAt: AT }),
      metadata: { ...(metadata?.priority === undefined ? {} : { priority: metadata.priority }), extra: { memoryChunk: chunk } },
    };
    const [item] = importMemoryChunks([chunk]);
    expect(item).toStrictEqual(expected);
    // The very object stored: a custom renderer reads chunk.content and chunk.metadata.custom as written.
    expect(item!.metadata.extra!.memoryChunk).toBe(chunk);
  });

  test("keeps unknown and unused fields verbatim in metadata.extra", () => {
    const parentIds = ["c0"];
    const [item] = importMemoryChunks([
      {
        id: "c1",
        type: "SYSTEM",
        content: { type: "TEXT", text: "Rules", lang: "en" },
        retentionStrategy: "CRITICAL",
        mutable: false,
        metadata: { createdAt: CREATED, parentIds, custom: { eventType: "SYSTEM_PROMPT", role: "ignored here" } },
      },
    ]);
    expect(item).toStrictEqual({
      id: "c1",
      type: "system",
      role: "system",
      text: "Rules",
      createdAt: AT,
      metadata: {
        extra: {
          retentionStrategy: "CRITICAL",
          mutable: false,
          "metadata.parentIds": ["c0"],
          "content.lang": "en",
          "metadata.custom.eventType": "SYSTEM_PROMPT",
          "metadata.custom.role": "ignored here",
        },
      },
    });
    expect(item?.metadata.extra?.["metadata.parentIds"]).toBe(parentIds);
  });

  test("an attribute found in content wins; the same attribute elsewhere is kept", () => {
    const [item] = importMemoryChunks([{ id: "c1", type: "AGENT", role: "assistant", content: { role: "user", text: "Hi" } }]);
    expect(item).toStrictEqual({ id: "c1", type: "user", role: "user", text: "Hi", metadata: { extra: { role: "assistant" } } });
  });

  test.for<{ name: string; input: unknown; index: number; id: string | undefined; path: Array<string | number>; field: string }>([
    { name: "input that is not an array", input: "chunks", index: 0, id: undefined, path: [], field: "(record)" },
    { name: "a null chunk", input: [null], index: 0, id: undefined, path: [], field: "(record)" },
    { name: "a missing id", input: [{ type: "SYSTEM", content: "x" }], index: 0, id: undefined, path: ["id"], field: "id" },
    { name: "a chunk type that is not a string", input: [{ id: "c1", type: 7, content: "x" }], index: 0, id: "c1", path: ["type"], field: "type" },
    { name: "a missing chunk type", input: [{ id: "c1", content: "x" }], index: 0, id: "c1", path: ["type"], field: "type" },
    { name: "content of the wrong type", input: [{ id: "c1", type: "SYSTEM", content: 12 }], index: 0, id: "c1", path: ["content"], field: "content" },
    { name: "content.text of the wrong type", input: [{ id: "c1", type: "SYSTEM", content: { text: ["a"] } }], index: 0, id: "c1", path: ["content", "text"], field: "content.text" },
    { name: "metadata that is not an object", input: [{ id: "c1", type: "SYSTEM", content: "x", metadata: "m" }], index: 0, id: "c1", path: ["metadata"], field: "metadata" },
    { name: "an AGENT chunk without a role", input: [{ id: "c1", type: "AGENT", content: { text: "x" } }], index: 0, id: "c1", path: ["content", "role"], field: "content.role" },
    { name: "an AGENT chunk with an unknown role", input: [{ id: "c1", type: "AGENT", content: "x", role: "tool" }], index: 0, id: "c1", path: ["role"], field: "role" },
    { name: "an unknown WORKFLOW action", input: [{ id: "c1", type: "WORKFLOW", content: { action: "deploy" } }], index: 0, id: "c1", path: ["content", "action"], field: "content.action" },
    { name: "a tool call without a call id", input: [{ id: "c1", type: "WORKFLOW", content: { action: "tool_call", tool: "t" } }], index: 0, id: "c1", path: ["content", "callId"], field: "content.callId" },
    { name: "a tool call without a tool name", input: [{ id: "c1", type: "WORKFLOW", content: { action: "tool_call", callId: "k" } }], index: 0, id: "c1", path: ["content", "tool"], field: "content.tool" },
    { name: "an undecidable DELEGATION chunk", input: [{ id: "c1", type: "DELEGATION", content: "Hello" }], index: 0, id: "c1", path: ["action"], field: "action" },
    { name: "a subagent spawn without subagentId", input: [{ id: "c1", type: "DELEGATION", content: { action: "spawn_subagent" } }], index: 0, id: "c1", path: ["content", "subagentId"], field: "content.subagentId" },
    { name: "an ENVIRONMENT chunk without a call id", input: [{ id: "c1", type: "ENVIRONMENT", content: { source: "tool", text: "x" } }], index: 0, id: "c1", path: ["content", "callId"], field: "content.callId" },
    { name: "success that is not a boolean", input: [{ id: "c1", type: "ENVIRONMENT", content: { callId: "k", success: "yes" } }], index: 0, id: "c1", path: ["content", "success"], field: "content.success" },
    { name: "a WORKING_FLOW subType that is not a string", input: [{ id: "c1", type: "WORKING_FLOW", subType: 3, content: "x" }], index: 0, id: "c1", path: ["subType"], field: "subType" },
    { name: "a metadata.priority that is not a number", input: [{ id: "c1", type: "SYSTEM", content: "x", metadata: { priority: "high" } }], index: 0, id: "c1", path: ["metadata", "priority"], field: "metadata.priority" },
    { name: "a WORKING_FLOW chunk without discriminator", input: [{ id: "c1", type: "WORKING_FLOW", content: { text: "x" } }], index: 0, id: "c1", path: ["content", "subType"], field: "content.subType" },
    { name: "an originalCount that is not a whole number", input: [{ id: "c1", type: "WORKING_FLOW", content: { originalCount: 1.5 } }], index: 0, id: "c1", path: ["content", "originalCount"], field: "content.originalCount" },
    { name: "an unknown OUTPUT action", input: [{ id: "c1", type: "OUTPUT", content: { action: "task_paused" } }], index: 0, id: "c1", path: ["content", "action"], field: "content.action" },
  ])("rejects $name", ({ input, index, id, path, field }) => {
    const error = catchInvalidInput(() => importMemoryChunks(input));
    expect(errorShape(error)).toStrictEqual({ name: "InvalidInputError", code: "INPUT_INVALID", source: "memory chunk", index, id, path });
    expect(error.issues).toHaveLength(1);
    expect(error.message).toContain(`memory chunk[${index}]`);
    if (id !== undefined) expect(error.message).toContain(`(id "${id}")`);
    expect(error.message).toContain(`field ${field}:`);
  });

  test("lists every problem of the input in one error", () => {
    const error = catchInvalidInput(() =>
      importMemoryChunks([
        { id: "c0", type: "SYSTEM", content: "fine" },
        { id: "c1", type: "SYSTEM", content: 1 },
        7,
        { id: "c3", type: "WORKFLOW", content: { action: "tool_call" } },
      ]),
    );
    expect(error.issues).toStrictEqual([
      { index: 1, id: "c1", path: ["content"], message: "expected a string or an object, got 1" },
      { index: 2, id: undefined, path: [], message: "expected an object, got 7" },
      { index: 3, id: "c3", path: ["content", "tool"], message: "a tool call needs the tool name (looked in content, the chunk, metadata and metadata.custom)" },
      { index: 3, id: "c3", path: ["content", "callId"], message: "a tool call needs its call id (callId or call_id) (looked in content, the chunk, metadata and metadata.custom)" },
    ]);
    expect(errorShape(error)).toStrictEqual({ name: "InvalidInputError", code: "INPUT_INVALID", source: "memory chunk", index: 1, id: "c1", path: ["content"] });
  });

  test("imports an agent run that the pipeline builds", async () => {
    const items = importMemoryChunks([
      { id: "c1", type: "AGENT", content: { role: "user", text: "Read main.ts" }, metadata: { createdAt: CREATED } },
      { id: "c2", type: "WORKFLOW", content: { action: "tool_call", toolName: "read_file", callId: "call_1", arguments: { path: "main.ts" } }, metadata: { createdAt: CREATED + 1 } },
      { id: "c3", type: "ENVIRONMENT", content: { source: "tool", toolName: "read_file", callId: "call_1", text: "export {}" }, metadata: { createdAt: CREATED + 2 } },
      { id: "c4", type: "OUTPUT", content: { action: "task_completed", text: "It exports nothing." }, metadata: { createdAt: CREATED + 3 } },
    ]);
    const result = await createPipeline().build(items);
    expect(result.request.messages).toStrictEqual([
      { role: "user", content: "Read main.ts" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"main.ts"}' } }] },
      { role: "tool", tool_call_id: "call_1", content: "export {}" },
      { role: "assistant", content: "Task completed:\nIt exports nothing." },
      // The history ends with the assistant: repair-orphans asks it to continue (OAI-017, ANT-015, GEM-016).
      { role: "user", content: "Continue." },
    ]);
  });

  test("any input either imports or throws InvalidInputError, never a TypeError", () => {
    const keys = ["id", "type", "subType", "content", "priority", "metadata", "custom", "createdAt", "text", "role", "action", "source", "tool", "toolName", "skill", "callId", "call_id", "status", "subagentId", "agentType", "parentAgentId", "success", "error", "compactedAt", "originalCount", "reason", "terminatedBy", "arguments", "todos", "duration"];
    const labels = ["SYSTEM", "AGENT", "WORKFLOW", "DELEGATION", "ENVIRONMENT", "WORKING_FLOW", "OUTPUT", "TEXT", "user", "assistant", "parent", "clarification", "tool_call", "skill_call", "spawn_subagent", "subagent_result", "subagent_error", "tool", "tool_error", "skill", "skill_result", "COMPACTED", "THINKING", "USER", "RESPONSE", "todo", "todo_set", "progress_summary", "task_completed", "task_abandoned", "task_terminated"];
    fc.assert(fc.property(arbitraryInput(keys, labels), (input) => returnsOrThrowsInvalidInput(() => importMemoryChunks(input))), { numRuns: 500 });
  });
});
