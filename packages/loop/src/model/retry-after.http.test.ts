// The wait a provider asks for (Retry-After in seconds or as an HTTP date, or OpenAI's retry-after-ms)
// reaches the error as retryAfterMs, over HTTP, for both adapters; a failure not worth retrying carries none.
import { createPipeline } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { AnthropicMessagesRendererPlugin } from "@ctxpipe/renderers";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { json, type LocalModelServer, startLocalModelServer } from "./__fixtures__/local-model-server.js";
import { anthropicModel } from "./anthropic-model.js";
import type { ModelAdapter } from "./model-adapter.js";
import type { ModelError } from "./model-error.js";
import { openAICompatibleModel } from "./openai-compatible-model.js";

let server: LocalModelServer;
beforeAll(async () => {
  server = await startLocalModelServer();
});
afterAll(() => server.close());

const ADAPTERS = [
  { name: "openai-compatible", busy: 503, model: (): ModelAdapter => openAICompatibleModel({ model: "gpt-test", baseURL: `${server.url}/v1`, env: {} }) },
  // Anthropic's overloaded status.
  { name: "anthropic", busy: 529, model: (): ModelAdapter => anthropicModel({ model: "claude-test", baseURL: server.url, env: {} }) },
];

/** The adapter's own renderer's request for one question. */
async function requestFor(adapter: ModelAdapter): Promise<unknown> {
  const pipeline = createPipeline({ plugins: [new AnthropicMessagesRendererPlugin()] });
  const result = await pipeline.build([{ id: "u1", type: "user", text: "Hello?" }], { renderer: adapter.renderer as "openai", tokenizer: wordTokenizer, maxTokens: 20_000, reserveOutputTokens: 1000 });
  return result.request;
}

async function failureOf(adapter: ModelAdapter): Promise<ModelError> {
  return (await adapter.complete({ request: (await requestFor(adapter)) as never }).catch((caught: unknown) => caught)) as ModelError;
}

describe.for(ADAPTERS)("$name", ({ busy, model }) => {
  test.for([
    { name: "429 with Retry-After in seconds", status: 429, headers: () => ({ "retry-after": "3" }), expected: [3000, 3000] },
    { name: "the busy status with Retry-After as an HTTP date", status: busy, headers: () => ({ "retry-after": new Date(Date.now() + 5000).toUTCString() }), expected: [3000, 5000] },
    { name: "429 with retry-after-ms", status: 429, headers: () => ({ "retry-after-ms": "1500", "retry-after": "2" }), expected: [1500, 1500] },
  ])("the wait the provider asks for is on the error: $name", async ({ status, headers, expected }) => {
    server.answer((response) => {
      response.writeHead(status, { "content-type": "application/json", ...headers() }).end(JSON.stringify({ error: { message: "busy" } }));
    });
    const error = await failureOf(model());
    expect(error).toMatchObject({ code: "LLM_HTTP_ERROR", status, retryable: true });
    expect(error.retryAfterMs).toBeGreaterThanOrEqual(expected[0]!);
    expect(error.retryAfterMs).toBeLessThanOrEqual(expected[1]!);
  });

  test("a Retry-After on a failure not worth retrying is ignored, and none is none", async () => {
    server.answer((response) => {
      response.writeHead(400, { "content-type": "application/json", "retry-after": "3" }).end(JSON.stringify({ error: { message: "bad" } }));
    });
    const refused = await failureOf(model());
    expect(refused).toMatchObject({ status: 400, retryable: false });
    expect(Object.keys(refused)).not.toContain("retryAfterMs");
    server.answer(json(503, { error: { message: "busy" } }));
    const busyError = await failureOf(model());
    expect(busyError).toMatchObject({ status: 503, retryable: true });
    expect(Object.keys(busyError)).not.toContain("retryAfterMs");
  });
});
