import { describe, expect, test } from "vitest";
import type { ItemInput } from "../model/item.js";
import { importMemoryChunks } from "../importers/import-memory-chunks.js";
import { buildWith } from "../testing/index.js";
import { RepairOrphansPlugin } from "./repair-orphans-plugin.js";

const user: ItemInput = { id: "u", type: "user", text: "check both" };
const twoCalls: ItemInput = {
  id: "a",
  type: "assistant",
  text: "",
  toolCalls: [
    { id: "c1", name: "read", arguments: '{"f":1}' },
    { id: "c2", name: "read", arguments: '{"f":2}' },
  ],
};

describe("RepairOrphansPlugin (basic)", () => {
  test("drops a tool result whose call is not in the context (seed 004)", async () => {
    const result = await buildWith([], [user, { id: "a0", type: "assistant", text: "ok" }, { id: "orphan", type: "tool-result", callId: "gone", output: "stale" }]);
    expect(result.excludedIds).toEqual(["orphan"]);
    expect(result.report.entries[2]).toMatchObject({
      decision: "dropped",
      stage: "repair-orphans",
      plugin: "RepairOrphansPlugin",
      reason: 'result of call "gone", which no earlier assistant message made',
    });
  });

  test("synthesizes an interrupted result for a call that never got one, right after the call's other results", async () => {
    const result = await buildWith([], [user, twoCalls, { id: "r1", type: "tool-result", callId: "c1", output: "one" }]);
    expect(result.request.messages).toEqual([
      { role: "user", content: "check both" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "read", arguments: '{"f":1}' } },
          { id: "c2", type: "function", function: { name: "read", arguments: '{"f":2}' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "one" },
      { role: "tool", tool_call_id: "c2", content: "Error: The tool call was interrupted before it returned a result." },
    ]);
    expect(result.report.synthesized).toEqual([
      expect.objectContaining({ id: "ctxpipe:interrupted:a:c2", decision: "synthesized", stage: "repair-orphans", plugin: "RepairOrphansPlugin", reason: 'call "c2" (read) had no result' }),
    ]);
  });

  test("the synthesized text is configurable", async () => {
    const result = await buildWith([new RepairOrphansPlugin({ interruptedText: "Cancelled by the user." })], [user, twoCalls]);
    expect(result.request.messages.slice(2)).toEqual([
      { role: "tool", tool_call_id: "c1", content: "Error: Cancelled by the user." },
      { role: "tool", tool_call_id: "c2", content: "Error: Cancelled by the user." },
    ]);
  });

  test("leaves a well-formed history alone", async () => {
    const items: ItemInput[] = [user, twoCalls, { id: "r1", type: "tool-result", callId: "c1", output: "1" }, { id: "r2", type: "tool-result", callId: "c2", output: "2" }];
    const result = await buildWith([], items);
    expect(result.report.entries.map((entry) => entry.decision)).toEqual(["kept", "kept", "kept", "kept"]);
    expect(result.report.synthesized).toEqual([]);
  });

  test("a result separated from its call by another message is moved back next to the call", async () => {
    const result = await buildWith([], [user, twoCalls, { id: "r1", type: "tool-result", callId: "c1", output: "one" }, { id: "u2", type: "user", text: "hurry up" }, { id: "r2", type: "tool-result", callId: "c2", output: "two" }]);
    expect(result.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "user"]);
    expect(result.report.entries.find((entry) => entry.id === "r2")).toMatchObject({
      decision: "repaired",
      stage: "repair-orphans",
      reason: 'moved right after the assistant message "a" that made call "c2"',
    });
    expect(result.report.entries.find((entry) => entry.id === "r1")).toMatchObject({ decision: "kept" });
  });

  test("thinking between a call and its result does not break the pairing", async () => {
    const result = await buildWith([], [user, { id: "a", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "f", arguments: "{}" }] }, { id: "th", type: "thinking", text: "waiting" }, { id: "r", type: "tool-result", callId: "c1", output: "ok" }]);
    expect(result.request.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
  });

  test("a second result for the same call is dropped", async () => {
    const result = await buildWith([], [user, twoCalls, { id: "r1", type: "tool-result", callId: "c1", output: "1" }, { id: "r2", type: "tool-result", callId: "c2", output: "2" }, { id: "again", type: "tool-result", callId: "c1", output: "1 again" }]);
    expect(result.excludedIds).toEqual(["again"]);
    expect(result.report.entries.at(-1)).toMatchObject({ decision: "dropped", reason: 'a second result for call "c1"' });
  });

  test("a call id reused by a later message is answered per message", async () => {
    const reused: ItemInput = { id: "a2", type: "assistant", text: "", toolCalls: [{ id: "c1", name: "read", arguments: "{}" }] };
    const result = await buildWith([], [user, twoCalls, { id: "r1", type: "tool-result", callId: "c1", output: "1" }, { id: "r2", type: "tool-result", callId: "c2", output: "2" }, reused]);
    expect(result.report.synthesized.map((entry) => entry.id)).toEqual(["ctxpipe:interrupted:a2:c1"]);
  });

  test("a call whose result an earlier stage left out is told so, not that it was interrupted", async () => {
    const result = await buildWith([], [user, twoCalls, { id: "r1", type: "tool-result", callId: "c1", output: "1" }, { id: "r2", type: "tool-result", callId: "c2", output: "secret", metadata: { includeInContext: false } }]);
    expect(result.request.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "c2", content: "Error: The result of this tool call was left out of the context." });
    expect(result.report.synthesized).toEqual([expect.objectContaining({ id: "ctxpipe:omitted:a:c2", reason: 'call "c2" (read) had its result left out by an earlier stage' })]);
  });

  test("parallel calls stored one message each (seed 001 chunks) are merged so the results follow all calls", async () => {
    const items = importMemoryChunks([
      { id: "u", type: "AGENT", content: { role: "user", text: "compare a and b" } },
      { id: "call_a", type: "WORKFLOW", content: { action: "tool_call", tool: "read", callId: "ca", text: '{"f":"a"}' } },
      { id: "call_b", type: "WORKFLOW", content: { action: "tool_call", tool: "read", callId: "cb", text: '{"f":"b"}' } },
      { id: "res_a", type: "ENVIRONMENT", content: { tool: "read", callId: "ca", success: true, text: "A" } },
      { id: "res_b", type: "ENVIRONMENT", content: { tool: "read", callId: "cb", success: true, text: "B" } },
    ]);
    const result = await buildWith([], items);
    expect(result.request.messages).toEqual([
      { role: "user", content: "compare a and b" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "ca", type: "function", function: { name: "read", arguments: '{"f":"a"}' } },
          { id: "cb", type: "function", function: { name: "read", arguments: '{"f":"b"}' } },
        ],
      },
      { role: "tool", tool_call_id: "ca", content: "A" },
      { role: "tool", tool_call_id: "cb", content: "B" },
    ]);
    expect(result.includedIds).toEqual(["u", "call_a", "call_b", "res_a", "res_b"]);
    expect(result.report.entries.map((entry) => [entry.id, entry.decision, entry.messageIndex])).toEqual([
      ["u", "kept", 0],
      ["call_a", "repaired", 1],
      ["call_b", "merged", 1],
      ["res_a", "kept", 2],
      ["res_b", "kept", 3],
    ]);
    expect(result.report.entries[2]).toMatchObject({ relatedId: "call_a", reason: "its tool calls joined the assistant message before it, so all results can follow all calls" });
  });
});
