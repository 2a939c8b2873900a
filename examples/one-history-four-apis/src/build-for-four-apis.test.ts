import { checkRules, openAIChatRules } from "@ctxpipe/core";
import { anthropicMessagesRules, geminiRules, openAIResponsesRules } from "@ctxpipe/renderers";
import { describe, expect, test } from "vitest";
import { buildForFourApis } from "./build-for-four-apis.js";
import { storedConversation } from "./stored-conversation.js";

type Stored = { type: string; role?: string; content?: unknown; output?: string; encrypted_content?: string; id?: string };

/** Every text the user and the model wrote, and every tool output: what no request may lose. */
function storedTexts(): string[] {
  return (storedConversation() as Stored[]).flatMap((item) => {
    if (item.type === "function_call_output") return [item.output ?? ""];
    if (item.type !== "message" || item.role === "developer") return [];
    if (typeof item.content === "string") return [item.content];
    return (item.content as Array<{ text: string }>).map((part) => part.text);
  });
}

describe("one stored Responses conversation, built for four APIs", () => {
  test("each request breaks none of its provider's rules and carries every stored text", async () => {
    const built = await buildForFourApis();
    expect(checkRules(openAIChatRules, built.chatCompletions.request, { model: "gpt-4.1" })).toEqual([]);
    expect(checkRules(openAIResponsesRules, built.responses.request, { model: "gpt-5" })).toEqual([]);
    expect(checkRules(anthropicMessagesRules, built.anthropic.request, { model: "claude-sonnet-4-6" })).toEqual([]);
    expect(checkRules(geminiRules, built.gemini.request, { model: "gemini-3-pro" })).toEqual([]);
    for (const result of Object.values(built)) {
      const sent = JSON.stringify(result.request);
      for (const text of storedTexts()) expect(sent).toContain(JSON.stringify(text).slice(1, -1));
    }
  });

  test("the Responses request sends each reasoning item back, encrypted content and id, right before the item it belongs to", async () => {
    const { responses } = await buildForFourApis();
    const input = responses.request.input as Stored[];
    const stored = (storedConversation() as Stored[]).filter((item) => item.type === "reasoning");
    for (const reasoning of stored) {
      const at = input.findIndex((item) => item.id === reasoning.id);
      expect(input[at]?.encrypted_content).toBe(reasoning.encrypted_content);
      expect(["message", "function_call"]).toContain(input[at + 1]?.type);
    }
    expect(responses.request.instructions).toContain("release engineer");
    expect(responses.request.max_output_tokens).toBe(2000);
  });

  test("reasoning encrypted by OpenAI goes to no other provider", async () => {
    const { chatCompletions, anthropic, gemini } = await buildForFourApis();
    for (const result of [chatCompletions, anthropic, gemini]) expect(JSON.stringify(result.request)).not.toContain("gAAAAAB");
  });

  test("both OpenAI formats carry the prompt cache key; Anthropic gets cache breakpoints", async () => {
    const { chatCompletions, responses, anthropic } = await buildForFourApis();
    expect(chatCompletions.request.prompt_cache_key).toBe("payments-deploy-2026-11-26");
    expect(responses.request.prompt_cache_key).toBe("payments-deploy-2026-11-26");
    const placed = anthropic.report.cache.breakpoints?.filter((point) => point.placed) ?? [];
    expect(placed.length).toBeGreaterThan(0);
    expect(JSON.stringify(anthropic.request)).toContain('"cache_control"');
  });
});
