// toProviderPrompt must send what `ai` itself would send for the same messages: the middleware
// replaces the prompt `ai` made, so any difference would reach the provider. `ai`'s own converter
// (convertToLanguageModelPrompt, exported from "ai/internal") is the reference, with every URL
// supported so that nothing is downloaded.
import type { ModelMessage } from "ai";
import { convertToLanguageModelPrompt } from "ai/internal";
import { expect, test } from "vitest";
import { toProviderPrompt } from "./to-provider-prompt.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
// "%PDF-1.7": not an image signature (`ai` reads image bytes for their media type; the middleware gets types already read).
const bytes = new Uint8Array([37, 80, 68, 70, 45, 49, 46, 55]);

const cases: ReadonlyArray<[string, ModelMessage[]]> = [
  ["text as a string", [{ role: "user", content: "Hello" }, { role: "assistant", content: "Hi." }, { role: "user", content: "Bye" }]],
  [
    "images and files in every form",
    [
      {
        role: "user",
        content: [
          { type: "text", text: "Look:" },
          { type: "image", image: PNG, mediaType: "image/png" },
          { type: "image", image: `data:image/png;base64,${PNG}` },
          { type: "image", image: new URL("https://example.com/cat.png") },
          { type: "file", data: bytes, mediaType: "application/pdf", filename: "a.pdf" },
          { type: "file", data: "https://example.com/report.pdf", mediaType: "application/pdf" },
          { type: "file", data: "https://example.com/a b.pdf", mediaType: "application/pdf" },
          { type: "file", data: { type: "data", data: PNG }, mediaType: "image/png" },
        ],
      },
    ],
  ],
  [
    "calls, results of every output type, approvals, consecutive tool messages",
    [
      { role: "user", content: "Weather and trains?" },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Two tools." },
          { type: "text", text: "Checking." },
          { type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Paris" } },
          { type: "tool-call", toolCallId: "c2", toolName: "train", input: { to: "Paris" } },
          { type: "tool-approval-request", approvalId: "ap1", toolCallId: "c2" },
        ],
      },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "weather", output: { type: "json", value: { celsius: 18 } } }] },
      {
        role: "tool",
        content: [
          { type: "tool-approval-response", approvalId: "ap1", approved: true },
          { type: "tool-result", toolCallId: "c2", toolName: "train", output: { type: "error-text", value: "No trains." } },
        ],
      },
      { role: "user", content: [{ type: "text", text: "Thanks" }], providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } } },
    ],
  ],
];

test.for(cases)("%s: the same prompt as the AI SDK's own conversion", async ([_name, messages]) => {
  const reference = await convertToLanguageModelPrompt({
    prompt: { messages, instructions: undefined },
    supportedUrls: { "*/*": [/.*/] },
    download: undefined,
  });
  expect(toProviderPrompt(messages)).toEqual(reference);
});
