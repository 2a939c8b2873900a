// Round trips between ctxpipe items and AI SDK ModelMessages, and the provider-valid promise for
// histories that arrive in the AI SDK's own formats, broken as real ones are.
import { checkRules, createPipeline, isBlank, type Item, type ItemInput } from "@ctxpipe/core";
import { adversarialConversations, wordTokenizer } from "@ctxpipe/core/testing";
import type { ModelMessage } from "ai";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { modelMessageHistories, uiMessageHistories } from "./__fixtures__/arbitrary-histories.js";
import { AiSdkRendererPlugin } from "./ai-sdk-renderer-plugin.js";
import { aiSdkRules } from "./ai-sdk-rules.js";
import { importModelMessages } from "./import-model-messages.js";
import { importUIMessages } from "./import-ui-messages.js";
import { renderModelMessages } from "./render-model-messages.js";
import { toolCallInput } from "./tool-call-input.js";

const pipeline = createPipeline({ plugins: [new AiSdkRendererPlugin()] });
const build = (items: ReadonlyArray<ItemInput>) => pipeline.build(items, { renderer: "ai-sdk", tokenizer: wordTokenizer, system: "Be brief." });

/** Texts, calls (name and input) and the call each result answers, in order, as the messages say them. */
function essentials(messages: ReadonlyArray<ModelMessage>) {
  const texts: string[] = [];
  const calls: Array<[string, string, unknown]> = [];
  const results: Array<[string, unknown]> = [];
  for (const message of messages) {
    if (typeof message.content === "string") {
      texts.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text") texts.push(part.text);
      else if (part.type === "tool-call") calls.push([part.toolCallId, part.toolName, part.input]);
      else if (part.type === "tool-result") results.push([part.toolCallId, part.output]);
    }
  }
  return { texts, calls, results };
}

/** Every result answers a call of the assistant item last before it. */
function pairingHolds(items: ReadonlyArray<Item>): boolean {
  let calls = new Set<string>();
  for (const item of items) {
    if (item.type === "assistant") calls = new Set(item.toolCalls.map((call) => call.id));
    else if (item.type === "tool-result" && !calls.has(item.callId)) return false;
  }
  return true;
}

describe("round trips", () => {
  test("items rendered with ai-sdk, then imported: the same texts, calls and pairing, and rendering again gives the same messages", async () => {
    await fc.assert(
      fc.asyncProperty(adversarialConversations(fc), async (items) => {
        let result: Awaited<ReturnType<typeof build>>;
        try {
          result = await build(items);
        } catch {
          return;
        }
        const imported = importModelMessages(result.request.messages);
        const again = renderModelMessages(imported);
        expect(again.messages).toEqual(result.request.messages);
        expect(essentials(again.messages)).toEqual(essentials(result.request.messages));
        expect(pairingHolds(imported)).toBe(true);
        // Every call sent comes back with its name and input.
        const sentCalls = essentials(result.request.messages).calls;
        const importedCalls = imported.flatMap((item) => (item.type === "assistant" ? item.toolCalls.map((call) => [call.id, call.name, toolCallInput(call.arguments)]) : []));
        expect(importedCalls).toEqual(sentCalls);
      }),
      { numRuns: 150 },
    );
  });

  test("a ModelMessage history imported, then rendered: every text and call kept", () => {
    fc.assert(
      fc.property(modelMessageHistories, (messages) => {
        const rendered = renderModelMessages(importModelMessages(messages), { laterSystemMessages: "user" });
        const before = essentials(messages);
        const after = essentials(rendered.messages);
        const sentText = JSON.stringify([rendered.system, rendered.messages]);
        for (const text of before.texts) if (!isBlank(text)) expect(sentText).toContain(JSON.stringify(text).slice(1, -1));
        expect(after.calls).toEqual(before.calls);
        // System messages are not in `before`'s parts: ModelMessage system content is a string.
        for (const message of messages) if (message.role === "system" && !isBlank(message.content)) expect(sentText).toContain(JSON.stringify(message.content).slice(1, -1));
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * The promise of check-provider-valid, for a history in the AI SDK's format: the request breaks no
 * rule, and every user or assistant item with text is sent or reported with a reason.
 */
async function problemsOf(items: ReadonlyArray<Item>): Promise<string[]> {
  let result: Awaited<ReturnType<typeof build>>;
  try {
    result = await build(items);
  } catch (error) {
    const issues = (error as { issues?: Array<{ rule: string }> }).issues ?? [];
    return issues.length > 0 && issues.every((issue) => issue.rule === "NOT_EMPTY") ? [] : [`the build failed: ${String(error)}`];
  }
  const problems = checkRules(aiSdkRules, result.request).map((violation) => `${violation.rule} at ${violation.path}: ${violation.message}`);
  const sent = JSON.stringify(result.request);
  items.forEach((item, index) => {
    if ((item.type !== "user" && item.type !== "assistant") || isBlank(item.text)) return;
    const entry = result.report.entries[index];
    if (entry === undefined || entry.id !== item.id) problems.push(`item ${index} ("${item.id}") is missing from the report`);
    else if (["dropped", "summarized", "merged", "truncated"].includes(entry.decision)) {
      if (entry.reason.length === 0) problems.push(`item ${index} ("${item.id}") is ${entry.decision} without a reason`);
    } else if (!sent.includes(JSON.stringify(item.text.toWellFormed()).slice(1, -1))) problems.push(`item ${index} ("${item.id}") is ${entry.decision}, but its text is not in the request`);
  });
  return problems;
}

describe("histories in the AI SDK's formats, broken or not", () => {
  test("a ModelMessage history: the request breaks no rule and loses no text silently", async () => {
    await fc.assert(
      fc.asyncProperty(modelMessageHistories, async (messages) => {
        expect(await problemsOf(importModelMessages(messages))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  test("a UIMessage history: the request breaks no rule and loses no text silently", async () => {
    await fc.assert(
      fc.asyncProperty(uiMessageHistories, async (messages) => {
        expect(await problemsOf(importUIMessages(messages))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
