// Calls and results stored without an id: whatever the store's shape, the build is accepted, every
// call in the request has its own portable id, the k-th result without an id of a turn answers the
// k-th call without an id before it, and every result without an id is paired or reported.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ItemInput } from "../../model/item.js";
import { createPipeline } from "../../pipeline/pipeline.js";
import { emptyCallIds } from "../../testing/adversarial/empty-call-ids.js";
import { adversarialConversations, wordTokenizer } from "../../testing/index.js";
import { CALL_ID_PATTERN } from "../../validation/portable-limits.js";

type Message = { role: string; content?: unknown; tool_call_id?: string; tool_calls?: Array<{ id: string }> };

describe("calls and results stored without an id", () => {
  test("build, with unique portable ids, and every result stored without an id is paired or reported", async () => {
    const pipeline = createPipeline({ defaults: { fitBudget: false } });
    await fc.assert(
      fc.asyncProperty(fc.tuple(adversarialConversations(fc, { maxSteps: 20 }), emptyCallIds(fc)), async ([conversation, perturb]) => {
        // A last user message: a history with nothing to send is refused for its own reason.
        const items = [...perturb(conversation), { id: "last", type: "user", text: "Go on." } as ItemInput];
        // Validation throws on any rule the request breaks.
        const built = await pipeline.build(items, { tokenizer: wordTokenizer });
        const messages = built.request.messages as ReadonlyArray<Message>;
        const ids = messages.flatMap((message) => (message.tool_calls ?? []).map((call) => call.id));
        expect(ids.every((id) => CALL_ID_PATTERN.test(id))).toBe(true);
        expect(new Set(ids).size).toBe(ids.length);
        items.forEach((item, index) => {
          if (item.type !== "tool-result" || item.callId !== "") return;
          const entry = built.report.entries[index]!;
          expect(entry.id).toBe(item.id);
          expect(entry.decision === "kept" || entry.reason === "").toBe(false);
        });
      }),
      { numRuns: 200 },
    );
  });

  test("within a turn, the k-th result without an id answers the k-th call without an id", async () => {
    const pipeline = createPipeline({ defaults: { fitBudget: false } });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }), fc.nat({ max: 7 }), async (withId, resultCount) => {
        const calls = withId.map((has, position) => ({ id: has ? `call_${position}` : "", name: `tool_${position}`, arguments: "{}" }));
        const items: ItemInput[] = [{ id: "u", type: "user", text: "go" }, { id: "a", type: "assistant", text: "", toolCalls: calls }];
        // Results with ids answer by id, so they are stored last and in reverse; those without, in order.
        for (let k = 0; k < resultCount; k++) items.push({ id: `r${k}`, type: "tool-result", callId: "", output: `OUT${k}` });
        calls.forEach((call, position) => {
          if (call.id !== "") items.splice(2, 0, { id: `by-id-${position}`, type: "tool-result", callId: call.id, output: `BY_ID${position}` });
        });
        const built = await pipeline.build(items, { tokenizer: wordTokenizer });
        const messages = built.request.messages as ReadonlyArray<Message>;
        const sentCalls = messages[1]!.tool_calls!;
        const answers = messages.slice(2, 2 + calls.length).map((message) => message.content);
        const blanks = calls.flatMap((call, position) => (call.id === "" ? [position] : []));
        const expected = calls.map((call, position) => {
          if (call.id !== "") return `BY_ID${position}`;
          const k = blanks.indexOf(position);
          return k < resultCount ? `OUT${k}` : "Error: The tool call was interrupted before it returned a result.";
        });
        expect(answers).toEqual(expected);
        expect(messages.slice(2, 2 + calls.length).map((message) => message.tool_call_id)).toEqual(sentCalls.map((call) => call.id));
        for (let k = blanks.length; k < resultCount; k++) expect(built.report.entries.find((entry) => entry.id === `r${k}`)).toMatchObject({ decision: "dropped" });
      }),
      { numRuns: 150 },
    );
  });
});
