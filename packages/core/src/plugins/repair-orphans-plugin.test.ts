import { describe, expect, test } from "vitest";
import type { ItemInput } from "../model/item.js";
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
      expect.objectContaining({ id: "a:interrupted:c2", decision: "synthesized", stage: "repair-orphans", plugin: "RepairOrphansPlugin", reason: 'call "c2" (read) had no result' }),
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
});
