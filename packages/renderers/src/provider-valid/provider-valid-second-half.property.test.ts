// The provider-valid promise over generated adversarial conversations: every trap listed in
// reference/providers.md, rendered for OpenAI (Chat Completions and Responses), Anthropic and Gemini. 10,000 conversations a run,
// split over two files so both cores work.
import { describe, test } from "vitest";
import { assertProviderValid } from "./provider-valid-property.js";

describe("provider-valid, second half", () => {
  test("openai (Chat Completions and Responses), anthropic and gemini requests break no rule, lose nothing silently and keep the newest user message", async () => {
    await assertProviderValid(5001, 5_000);
  }, 300_000);
});
