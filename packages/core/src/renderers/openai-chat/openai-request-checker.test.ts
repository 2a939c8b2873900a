import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createPipeline } from "../../pipeline/pipeline.js";
import { adversarialConversations, wordTokenizer } from "../../testing/index.js";
import { checkRules } from "../../validation/check-rules.js";
import type { OpenAIChatRequest } from "./openai-chat-request.js";
import { openAIChatRules } from "./openai-chat-rules.js";
import { OpenAIRequestChecker } from "./openai-request-checker.js";

// Unrepaired histories render to requests that break many rules, each message a frozen object shared
// with the requests rendered before it, as in an agent loop.
const unrepaired = () => createPipeline({ defaults: { repairOrphans: false, validate: false, fitBudget: false } });

describe("OpenAIRequestChecker", () => {
  test("finds what checkRules(openAIChatRules) finds, in its order, for requests that share messages with the last one", async () => {
    await fc.assert(
      fc.asyncProperty(
        adversarialConversations(fc, { maxSteps: 20 }),
        fc.array(fc.record({ append: fc.nat({ max: 5 }), editLast: fc.constantFrom("none", "drop", "replace", "unfrozen") }), { maxLength: 10 }),
        fc.constantFrom(undefined, "gpt-4o", "o1-mini"),
        async (conversation, steps, model) => {
          const pipeline = unrepaired();
          const checker = new OpenAIRequestChecker();
          let length = 0;
          for (const step of steps) {
            length = Math.min(conversation.length, length + step.append);
            const built = await pipeline.build(conversation.slice(0, length), { tokenizer: wordTokenizer, validation: "report", ...(model === undefined ? {} : { model }) }).catch(() => undefined);
            if (built === undefined) continue;
            const messages = [...built.request.messages] as unknown[];
            // What a later repair might do at the end: take a message away, put another there, or send one not frozen.
            if (step.editLast === "drop") messages.pop();
            if (step.editLast === "replace" && messages.length > 0) messages[messages.length - 1] = Object.freeze({ role: "tool", tool_call_id: "call_1", content: "late" });
            if (step.editLast === "unfrozen" && messages.length > 0) messages[0] = { ...(messages[0] as object) };
            const request: OpenAIChatRequest = { ...built.request, messages: messages as OpenAIChatRequest["messages"] };
            expect(checker.check(openAIChatRules, request, { model })).toEqual(checkRules(openAIChatRules, request, { model }));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test("a message that is not frozen is read again: it may have changed in place", () => {
    const checker = new OpenAIRequestChecker();
    const messages = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
      { role: "user", content: "and?" },
    ];
    const request = { messages };
    expect(checker.check(openAIChatRules, request)).toEqual([]);
    messages[1]!.content = "   ";
    const again = { messages: [...messages, { role: "user", content: "still there?" }] };
    expect(checker.check(openAIChatRules, again).map((violation) => violation.rule)).toEqual(checkRules(openAIChatRules, again).map((violation) => violation.rule));
    expect(checker.check(openAIChatRules, again).length).toBeGreaterThan(0);
  });

  test("a request that is not an object with messages is checked in full", () => {
    const checker = new OpenAIRequestChecker();
    for (const request of [null, {}, { messages: "no" }]) expect(checker.check(openAIChatRules, request)).toEqual(checkRules(openAIChatRules, request));
  });
});
