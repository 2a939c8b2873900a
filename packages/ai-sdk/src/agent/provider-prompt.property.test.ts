// Round trip of the middleware's conversion: a valid provider-level prompt imported into items, built
// (nothing to repair, no budget pressure) and rendered back is the same prompt: the same messages with
// the same text (a message's text parts may come back joined into one), files, calls, results and
// pairing. Both specification versions (v4 for ai 7, v3 for ai 6).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createAiSdkContext } from "./index.js";
import type { ProviderMessage, ProviderModel, ProviderPrompt, ProviderPromptVersion } from "./provider-prompt.js";
import { toProviderPrompt } from "./to-provider-prompt.js";

const text = fc.string({ minLength: 1, maxLength: 40, unit: "grapheme" }).filter((value) => value.trim() !== "" && /\p{L}|\p{N}/u.test(value));
const toolName = fc.constantFrom("weather", "read_file", "search-web", "book_hotel");
const jsonObject = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).filter((key) => key !== "__proto__"), fc.oneof(fc.integer(), text, fc.boolean()), { maxKeys: 3 });
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

type Json = Record<string, string | number | boolean>;
type Turn = { user: string[]; image: boolean; calls: Array<{ name: string; input: Json; output: { type: "text"; value: string } | { type: "json"; value: Json } | { type: "error-text"; value: string } }>; answer: string | undefined };

const turn: fc.Arbitrary<Turn> = fc.record({
  user: fc.array(text, { minLength: 1, maxLength: 2 }),
  image: fc.boolean(),
  calls: fc.array(
    fc.record({
      name: toolName,
      input: jsonObject,
      output: fc.oneof(
        text.map((value) => ({ type: "text" as const, value })),
        jsonObject.map((value) => ({ type: "json" as const, value })),
        text.map((value) => ({ type: "error-text" as const, value })),
      ),
    }),
    { maxLength: 3 },
  ),
  answer: fc.option(text, { nil: undefined }),
});

/** A prompt every provider accepts: system first, user turns, each call answered right after it, ending on a user turn. */
function promptOf(system: string[], turns: Turn[], last: string, version: ProviderPromptVersion): ProviderPrompt {
  const prompt: ProviderMessage[] = system.map((content) => ({ role: "system", content }));
  let callNumber = 0;
  for (const { user, image, calls, answer } of turns) {
    const data = version === "v4" ? { type: "data" as const, data: PNG } : PNG;
    prompt.push({
      role: "user",
      content: [...user.map((value) => ({ type: "text" as const, text: value })), ...(image ? [{ type: "file", data, mediaType: "image/png" } as never] : [])],
    });
    if (calls.length > 0) {
      const ids = calls.map(() => `call_${callNumber++}`);
      prompt.push({ role: "assistant", content: calls.map((call, index) => ({ type: "tool-call", toolCallId: ids[index]!, toolName: call.name, input: call.input })) });
      prompt.push({ role: "tool", content: calls.map((call, index) => ({ type: "tool-result", toolCallId: ids[index]!, toolName: call.name, output: call.output })) });
    }
    if (answer !== undefined) prompt.push({ role: "assistant", content: [{ type: "text", text: answer }] });
  }
  prompt.push({ role: "user", content: [{ type: "text", text: last }] });
  return prompt;
}

const prompts = (version: ProviderPromptVersion) =>
  fc.tuple(fc.array(text, { maxLength: 2 }), fc.array(turn, { maxLength: 6 }), text).map(([system, turns, last]) => promptOf(system, turns, last, version));

type Part = Record<string, unknown>;

/** What a prompt says, message by message: role, text (parts joined by a line break), and every other part as it is. */
function meaning(prompt: ProviderPrompt) {
  return prompt.map((message) => {
    const parts = (typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content) as Part[];
    return {
      role: message.role,
      text: parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n"),
      others: parts.filter((part) => part.type !== "text"),
    };
  });
}

const model = (version: ProviderPromptVersion) => ({ modelId: "gpt-4o", provider: "mock", specificationVersion: version }) as unknown as ProviderModel;

describe.each(["v4", "v3"] as const)("the provider prompt, %s", (version) => {
  test("toProviderPrompt gives back a provider prompt as it is", () => {
    fc.assert(
      fc.property(prompts(version), (prompt) => {
        expect(toProviderPrompt(prompt as never, version)).toEqual(prompt);
      }),
    );
  });

  test("imported, built and rendered by the middleware, a valid prompt comes back the same", async () => {
    await fc.assert(
      fc.asyncProperty(prompts(version), async (prompt) => {
        const context = createAiSdkContext({ maxTokens: 1_000_000, compression: false });
        const params = await context.middleware.transformParams!({ type: "generate", params: { prompt }, model: model(version) });
        expect(meaning(params.prompt)).toEqual(meaning(prompt));
        // Nothing was repaired or left out: every item is kept (or merged into the system prompt).
        const decisions = new Set(context.lastBuild!.report.entries.map((entry) => entry.decision));
        expect([...decisions].every((decision) => decision === "kept" || decision === "merged")).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
