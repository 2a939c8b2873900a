// The offload path over real HTTP with the OpenAI-compatible adapter: the endpoint answers like a model
// that reads the marker in the cut tool result and calls retrieve_context for the cut range.
import type { ServerResponse } from "node:http";
import { contentHandle } from "@ctxpipe/core";
import { afterEach, beforeEach, expect, test } from "vitest";
import { tempStore } from "../__fixtures__/loop-fixtures.js";
import { type LocalModelServer, type ReceivedRequest, startLocalModelServer } from "../model/__fixtures__/local-model-server.js";
import { openAICompatibleModel } from "../model/openai-compatible-model.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { ChatLoop } from "./chat-loop.js";

const LOG = Array.from({ length: 5000 }, (_, index) => `${String(index).padStart(5, "0")} GET /api/items/${index * 13} 200 ${(index * 31) % 500}ms`).join("\n");
const readLog: LoopTool = { name: "read_log", description: "Reads the access log.", run: () => LOG };

let server: LocalModelServer;
beforeEach(async () => {
  server = await startLocalModelServer();
});
afterEach(async () => {
  await server.close();
});

type Body = { messages: Array<{ role: string; content?: string }>; tools?: Array<{ function: { name: string } }> };

function toolCall(response: ServerResponse, id: string, name: string, args: unknown) {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }] }, finish_reason: "tool_calls" }] }));
}

test("over HTTP: the cut log's marker leads the model to retrieve_context, which returns exactly the cut range", async () => {
  let asked: { handle: string; from: number; to: number } | undefined;
  server.answer((response, request: ReceivedRequest) => {
    const body = request.body as Body;
    const turn = server.requests.indexOf(request);
    if (turn === 0) return toolCall(response, "call_1", "read_log", {});
    if (turn === 1) {
      const marker = /call retrieve_context with (\{[^}]*\})/.exec(body.messages.at(-1)?.content ?? "");
      asked = JSON.parse(marker![1]!);
      return toolCall(response, "call_2", "retrieve_context", asked);
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "Read it." }, finish_reason: "stop" }] }));
  });
  const { store } = tempStore();
  const loop = new ChatLoop({ model: openAICompatibleModel({ model: "gpt-4o-mini", baseURL: `${server.url}/v1`, env: {} }), store, tools: [readLog], buildOptions: { maxTokens: 16_000 } });
  const result = await loop.send({ conversationId: "c", userInput: "Which request was slowest?" });

  expect(result).toMatchObject({ status: "completed", text: "Read it.", turns: 3 });
  const bodies = server.requests.map((request) => request.body as Body);
  expect(bodies.map((body) => (body.tools ?? []).map((tool) => tool.function.name))).toStrictEqual([["read_log"], ["read_log", "retrieve_context"], ["read_log", "retrieve_context"]]);
  expect(asked?.handle).toBe(contentHandle(LOG));
  // What went over the wire as the tool's result is the cut range itself, after the reply's first line.
  const reply = bodies[2]!.messages.at(-1)!;
  expect(reply.role).toBe("tool");
  const part = reply.content!.slice(reply.content!.indexOf("\n") + 1);
  expect(part.length).toBeGreaterThan(1000);
  expect(part).toBe(LOG.slice(asked!.from, asked!.from + part.length));
  expect(await store.loadOffloaded("c", asked!.handle)).toMatchObject({ text: LOG });
});
