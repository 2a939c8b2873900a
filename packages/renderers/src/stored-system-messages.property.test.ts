// Stored system messages in any conversation a store holds, with no composed prompt: every non-blank
// one reaches the Anthropic and the Gemini request, wherever it was stored (both take system text only
// in their own slot), and the request breaks no rule, whichever place the renderer gives later ones.
import { checkRules, ContextValidationError, createPipeline, type ItemInput, isBlank, type Pipeline } from "@ctxpipe/core";
import { adversarialConversations, wordTokenizer } from "@ctxpipe/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { AnthropicMessagesRendererPlugin } from "./anthropic-messages/anthropic-messages-renderer-plugin.js";
import { anthropicMessagesRules } from "./anthropic-messages/anthropic-messages-rules.js";
import { GeminiRendererPlugin } from "./gemini/gemini-renderer-plugin.js";
import { geminiRules } from "./gemini/gemini-rules.js";

const SYSTEM_TEXTS = ["You are terse.", "From now on answer in French.", "Réponds en français. 你好。", "", " \n", "\u200B"];

/** The generated conversation with system messages put first and at chosen places, as stores hold them. */
const conversations = fc
  .tuple(adversarialConversations(fc), fc.array(fc.constantFrom(...SYSTEM_TEXTS), { maxLength: 2 }), fc.array(fc.tuple(fc.nat({ max: 40 }), fc.constantFrom(...SYSTEM_TEXTS)), { maxLength: 3 }))
  .map(([items, leading, later]) => {
    let next = 0;
    // Ids the generated conversations never hold, whatever quirks they were given.
    const system = (text: string): ItemInput => ({ id: `property-system-${next++}`, type: "system", text });
    const out = [...leading.map(system), ...items];
    for (const [at, text] of later) out.splice(at % (out.length + 1), 0, system(text));
    return out;
  });

type LaterSystemMessages = "system" | "user";

const RENDERERS = [
  {
    renderer: "anthropic" as const,
    model: "claude-sonnet-4-6",
    rules: anthropicMessagesRules,
    pipeline: (laterSystemMessages: LaterSystemMessages) => createPipeline({ plugins: [new AnthropicMessagesRendererPlugin({ laterSystemMessages })] }),
  },
  {
    renderer: "gemini" as const,
    model: "gemini-3-pro",
    rules: geminiRules,
    pipeline: (laterSystemMessages: LaterSystemMessages) => createPipeline({ plugins: [new GeminiRendererPlugin({ laterSystemMessages })] }),
  },
];

describe("stored system messages, property", () => {
  test.for(RENDERERS)("$renderer: with nothing composed, every non-blank stored system text is sent, in a request that breaks no rule", async ({ renderer, model, rules, pipeline }) => {
    const pipelines: Record<LaterSystemMessages, Pipeline> = { system: pipeline("system"), user: pipeline("user") };
    await fc.assert(
      fc.asyncProperty(conversations, fc.constantFrom<LaterSystemMessages>("system", "user"), async (items, later) => {
        let request: unknown;
        try {
          request = (await pipelines[later].build(items, { renderer, model, tokenizer: wordTokenizer })).request;
        } catch (error) {
          // Only a conversation with nothing to send besides system messages may be refused.
          expect(error instanceof ContextValidationError && error.issues.every((issue) => issue.rule === "NOT_EMPTY")).toBe(true);
          return;
        }
        expect(checkRules(rules, request, { model })).toEqual([]);
        const sent = JSON.stringify(request);
        // A record stored again under its id is an edit: the later version is the one sent.
        const latest = new Map(items.map((item) => [item.id, item]));
        for (const item of latest.values()) {
          if (item.type !== "system" || isBlank(item.text)) continue;
          expect(sent.includes(JSON.stringify(item.text.toWellFormed()).slice(1, -1)), `stored system message "${item.id}" is not sent`).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
