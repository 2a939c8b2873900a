import { convertToModelMessages, generateText, MissingToolResultsError } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, test, vi } from "vitest";
import { runAgent, tools } from "./run-agent.js";
import { storedChat } from "./stored-chat.js";

type Part = { type: string; toolCallId?: string; providerExecuted?: boolean };
type Message = { role: string; content: string | Part[] };

/** Every tool call answered in the message right after it, no result without its call, no call id twice. */
function pairingProblems(prompt: ReadonlyArray<Message>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const partsOf = (message: Message | undefined) => (message === undefined || typeof message.content === "string" ? [] : message.content);
  prompt.forEach((message, index) => {
    const ids = (type: string, of: Message | undefined) => partsOf(of).flatMap((part) => (part.type === type && part.providerExecuted !== true ? [part.toolCallId!] : []));
    if (message.role === "assistant") {
      const answered = ids("tool-result", prompt[index + 1]);
      for (const id of ids("tool-call", message)) {
        if (seen.has(id)) problems.push(`call ${id} made twice`);
        seen.add(id);
        if (!answered.includes(id)) problems.push(`call ${id} unanswered`);
      }
    }
    if (message.role === "tool") {
      const calls = prompt[index - 1]?.role === "assistant" ? ids("tool-call", prompt[index - 1]) : [];
      for (const id of ids("tool-result", message)) if (!calls.includes(id)) problems.push(`result ${id} without its call`);
    }
  });
  return problems;
}

describe("the AI SDK agent example", () => {
  test("the stored chat as it is: the AI SDK refuses it", async () => {
    const model = new MockLanguageModelV4({ modelId: "gpt-4o" });
    const failure = await generateText({ model, messages: await convertToModelMessages(storedChat()), tools }).catch((error: unknown) => error);
    expect(MissingToolResultsError.isInstance(failure)).toBe(true);
  });

  test("with ctxpipe in prepareStep: every step is inside the budget, every prompt is valid, and the repairs are reported", async () => {
    const run = await runAgent();
    expect(run.text).toBe("Tomorrow the TGV leaves for Paris at 8:04, then every hour.");
    expect(run.prompts).toHaveLength(2);
    for (const prompt of run.prompts) expect(pairingProblems(prompt as Message[])).toEqual([]);
    expect(run.steps.map((step) => step.step)).toEqual([0, 1]);
    for (const step of run.steps) {
      expect(step.tokenCount).toBeLessThanOrEqual(step.inputBudget);
      expect(step.cleared + step.leftOut).toBeGreaterThan(0);
      expect(step.repairs).toEqual([
        expect.stringMatching(/: dropped: a second copy of assistant message/),
        expect.stringMatching(/: dropped: a second result for call "call_w39"/),
        expect.stringMatching(/^ctxpipe:interrupted:.*call_aborted: synthesized: /),
      ]);
    }
  });

  test("pnpm start prints each step's tokens and repairs, then the answer", async () => {
    const lines: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    try {
      await import("./main.js");
    } finally {
      log.mockRestore();
    }
    expect(lines[0]).toMatch(/^step 0: \d+ of 3500 tokens, \d+ messages sent; to fit: \d+ old tool results cleared, \d+ old messages left out$/);
    expect(lines).toContain("  ctxpipe:interrupted:msg-123:call_aborted: synthesized: answers call \"call_aborted\" (train) of \"msg-123\": it has no result (the run was interrupted)");
    expect(lines.at(-1)).toBe("\nanswer: Tomorrow the TGV leaves for Paris at 8:04, then every hour.");
  });
});
