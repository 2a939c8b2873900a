// Stored system messages in any conversation a store holds, with no composed prompt: every non-blank
// one reaches the OpenAI request (none is left out, reported or not), the request breaks no rule, and
// the metadata describes the system prompt that was sent.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ContextValidationError } from "../errors/context-validation-error.js";
import { isBlank } from "../model/is-blank.js";
import type { ItemInput } from "../model/item.js";
import type { BuildResult } from "../pipeline/build-result.js";
import { createPipeline } from "../pipeline/pipeline.js";
import type { OpenAIChatRequest } from "../renderers/openai-chat/openai-chat-request.js";
import { openAIChatRules } from "../renderers/openai-chat/openai-chat-rules.js";
import { adversarialConversations, wordTokenizer } from "../testing/index.js";
import { storedSystemMessages } from "../testing/adversarial/stored-system-messages.js";
import { checkRules } from "../validation/check-rules.js";

const conversations = fc.tuple(adversarialConversations(fc), storedSystemMessages(fc)).map(([items, perturb]) => perturb(items));

describe("InsertSystemPlugin: stored system messages, property", () => {
  test("with nothing composed, every non-blank stored system text is sent, in a valid request", async () => {
    const pipeline = createPipeline();
    await fc.assert(
      fc.asyncProperty(conversations, fc.constantFrom("gpt-4o", "o1-mini"), async (items, model) => {
        let result: BuildResult<OpenAIChatRequest>;
        try {
          result = await pipeline.build(items, { tokenizer: wordTokenizer, model });
        } catch (error) {
          // Only a conversation with nothing to send besides system messages may be refused.
          expect(error instanceof ContextValidationError && error.issues.every((issue) => issue.rule === "NOT_EMPTY")).toBe(true);
          return;
        }
        expect(checkRules(openAIChatRules, result.request, { model })).toEqual([]);
        const sent = JSON.stringify(result.request);
        // A record stored again under its id is an edit: the later version is the one sent.
        const latest = new Map<string, ItemInput>();
        for (const item of items) latest.set(item.id, item);
        for (const item of latest.values()) {
          if (item.type !== "system" || isBlank(item.text)) continue;
          expect(sent.includes(JSON.stringify(item.text.toWellFormed()).slice(1, -1)), `stored system message "${item.id}" is not sent`).toBe(true);
        }
        const first = result.request.messages[0];
        if (result.metadata.systemPromptIncluded) expect(typeof first?.content === "string" ? first.content.length : -1).toBe(result.metadata.systemPromptLength);
        else expect(result.metadata.systemPromptLength).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
