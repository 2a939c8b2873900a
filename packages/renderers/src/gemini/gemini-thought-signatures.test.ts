import { type ItemInput, parseItems } from "@ctxpipe/core";
import { buildWith } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { GeminiRendererPlugin } from "./gemini-renderer-plugin.js";
import { isGemini3Model, SKIP_THOUGHT_SIGNATURE_VALIDATOR, type ThoughtSignatureMode } from "./gemini-thought-signatures.js";
import { renderGeminiContents } from "./render-gemini-contents.js";

const items: ItemInput[] = [
  { id: "u", type: "user", text: "Check both." },
  {
    id: "a",
    type: "assistant",
    toolCalls: [
      { id: "c1", name: "first", arguments: "{}", signature: "c2lnbmVk" },
      { id: "c2", name: "second", arguments: "{}" },
    ],
  },
  { id: "t1", type: "tool-result", callId: "c1", output: "1" },
  { id: "t2", type: "tool-result", callId: "c2", output: "2" },
];

const signaturesOf = (mode: ThoughtSignatureMode | undefined, model: string | undefined) =>
  renderGeminiContents(parseItems(items), { ...(mode === undefined ? {} : { thoughtSignatures: mode }), model }).contents[1]?.parts.map((part) =>
    "thoughtSignature" in part ? part.thoughtSignature : undefined,
  );

describe("thought signatures (GEM-018)", () => {
  test.for([
    { mode: undefined, model: "gemini-3-pro-preview", expected: ["c2lnbmVk", SKIP_THOUGHT_SIGNATURE_VALIDATOR] },
    { mode: "auto", model: "gemini-2.5-flash", expected: ["c2lnbmVk", undefined] },
    { mode: "auto", model: undefined, expected: ["c2lnbmVk", undefined] },
    { mode: "always", model: "gemini-2.5-flash", expected: ["c2lnbmVk", SKIP_THOUGHT_SIGNATURE_VALIDATOR] },
    { mode: "never", model: "gemini-3-pro-preview", expected: ["c2lnbmVk", undefined] },
  ] as const)("mode $mode on $model: stored signatures are kept, unsigned calls get $expected.1", ({ mode, model, expected }) => {
    expect(signaturesOf(mode, model)).toEqual(expected);
  });

  test.for([
    ["gemini-3-pro-preview", true],
    ["gemini-3-flash", true],
    ["models/gemini-3-pro-preview", true],
    ["projects/p/locations/global/publishers/google/models/gemini-3-pro-preview", true],
    ["gemini-2.5-pro", false],
    ["gpt-4o", false],
  ] as const)("%s is a Gemini 3 model: %s", ([model, expected]) => {
    expect(isGemini3Model(model)).toBe(expected);
  });

  test("a Gemini 3 build of calls stored by another provider passes GEM-018 by default", async () => {
    const result = await buildWith([new GeminiRendererPlugin()], [...items, { id: "u2", type: "user", text: "Thanks." }], { renderer: "gemini", model: "gemini-3-pro-preview", validation: "throw" });
    expect(result.request.contents[1]?.parts).toEqual([
      { functionCall: { id: "c1", name: "first", args: {} }, thoughtSignature: "c2lnbmVk" },
      { functionCall: { id: "c2", name: "second", args: {} }, thoughtSignature: SKIP_THOUGHT_SIGNATURE_VALIDATOR },
    ]);
  });
});
