// The renderer's promise: an item list that keeps what the default stages guarantee (see the
// renderer guide) renders to a request that breaks none of OpenAI's rules, strict ones included.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isBlank } from "../../model/is-blank.js";
import type { ItemInput } from "../../model/item.js";
import { createPipeline } from "../../pipeline/pipeline.js";
import { wordTokenizer } from "../../testing/index.js";
import { checkRules } from "../../validation/check-rules.js";
import { openAIChatRules } from "./openai-chat-rules.js";

const words = fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }).filter((text) => !isBlank(text));
const blank = fc.constantFrom("", " ", "\n\t", "\u200B");
const anyText = fc.oneof(words, blank);
const image = fc.record({ type: fc.constant("image" as const), url: fc.constant("https://example.test/a.png") });

const userRole = fc.oneof(
  fc.record({ type: fc.constant("user" as const), text: words }),
  fc.record({ type: fc.constant("user" as const), text: anyText, attachments: fc.array(image, { minLength: 1, maxLength: 2 }) }),
  fc.record({ type: fc.constant("user-intervention" as const), text: words }),
  fc.record({ type: fc.constant("parent-message" as const), parentAgentId: fc.constant("agent_0"), text: anyText }),
  fc.record({ type: fc.constant("subagent-result" as const), subagentId: fc.constant("agent_1"), text: anyText }),
);
// Assistant-role items may be blank: nothing in the guarantees rules that out.
const assistantRole = fc.oneof(
  fc.record({ type: fc.constant("assistant" as const), text: anyText }),
  fc.record({ type: fc.constantFrom("error" as const, "thinking" as const, "todo-update" as const, "task-completed" as const, "task-abandoned" as const, "task-terminated" as const), text: anyText }),
  fc.record({ type: fc.constant("subagent-spawn" as const), subagentId: fc.constant("agent_1"), text: anyText }),
);
const systemRole = fc.oneof(fc.record({ type: fc.constant("system" as const), text: words }), fc.record({ type: fc.constant("summary" as const), text: anyText }));
const calls = fc.record({ text: anyText, outputs: fc.array(words, { minLength: 1, maxLength: 3 }) });

/** A turn: user-role items, then what the assistant did, optionally a system message in between. */
const turn = fc.record({
  users: fc.array(userRole, { minLength: 1, maxLength: 2 }),
  replies: fc.array(fc.oneof(assistantRole.map((item) => ({ item })), calls.map((call) => ({ call }))), { maxLength: 3 }),
  system: fc.option(systemRole, { nil: undefined }),
});

function itemsFrom(leading: ReadonlyArray<{ type: string }>, turns: ReadonlyArray<typeof turn extends fc.Arbitrary<infer T> ? T : never>, last: { type: string }): ItemInput[] {
  let next = 0;
  const id = () => `i${next++}`;
  const items: ItemInput[] = leading.map((item) => ({ id: id(), ...item }) as ItemInput);
  for (const spec of turns) {
    for (const user of spec.users) items.push({ id: id(), ...user } as ItemInput);
    for (const reply of spec.replies) {
      if ("item" in reply) {
        items.push({ id: id(), ...reply.item } as ItemInput);
        continue;
      }
      const callIds = reply.call.outputs.map(() => `call_${next++}`);
      items.push({ id: id(), type: "assistant", text: reply.call.text, toolCalls: callIds.map((callId, n) => ({ id: callId, name: "read_file", arguments: `{"n":${n}}` })) });
      reply.call.outputs.forEach((output, n) => {
        items.push({ id: id(), type: "tool-result", callId: callIds[n]!, output, isError: n === 1 });
      });
    }
    if (spec.system !== undefined) items.push({ id: id(), ...spec.system } as ItemInput);
  }
  items.push({ id: id(), ...last } as ItemInput);
  return items;
}

const guaranteedLists = fc
  .tuple(fc.array(systemRole, { maxLength: 2 }), fc.array(turn, { maxLength: 4 }), userRole)
  .map(([leading, turns, last]) => itemsFrom(leading, turns, last));

describe("OpenAIChatRendererPlugin", () => {
  test("a list that keeps the stages' guarantees renders to a request that breaks no rule", async () => {
    // The renderer alone: no stage gets a chance to fix anything first.
    const pipeline = createPipeline({ defaults: { filter: false, repairOrphans: false, validate: false } });
    await fc.assert(
      fc.asyncProperty(guaranteedLists, fc.constantFrom("gpt-4o", "o1-mini"), fc.boolean(), async (items, model, withSystem) => {
        const result = await pipeline.build(items, { tokenizer: wordTokenizer, model, validation: "report", ...(withSystem ? { system: "Be brief." } : {}) });
        expect(checkRules(openAIChatRules, result.request, { model })).toEqual([]);
        expect(result.report.violations).toEqual([]);
      }),
    );
  });
});
