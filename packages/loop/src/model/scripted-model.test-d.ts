import type { OpenAIChatRequest } from "@ctxpipe/core";
import type { AnthropicMessagesRequest } from "@ctxpipe/renderers";
import { expectTypeOf, test } from "vitest";
import type { ModelAdapter } from "./model-adapter.js";
import { type ScriptedModel, scriptedModel } from "./scripted-model.js";

test("the renderer option types the requests the script and the calls see", () => {
  const openai = scriptedModel([(request) => ({ text: String(request.messages.length) })]);
  expectTypeOf(openai).toEqualTypeOf<ScriptedModel<"openai">>();
  expectTypeOf(openai.calls[0]!.request).toEqualTypeOf<OpenAIChatRequest>();
  expectTypeOf(openai).toExtend<ModelAdapter<"openai">>();

  const anthropic = scriptedModel([(request) => ({ text: String(request.max_tokens) })], { renderer: "anthropic" });
  expectTypeOf(anthropic).toEqualTypeOf<ScriptedModel<"anthropic">>();
  expectTypeOf(anthropic.calls[0]!.request).toEqualTypeOf<AnthropicMessagesRequest>();
  expectTypeOf(anthropic).toExtend<ModelAdapter<"anthropic">>();
});
