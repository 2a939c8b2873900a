// A UI's view of a loop call over HTTP: a real node:http server runs a ChatLoop whose model (a real
// OpenAI-compatible or Anthropic endpoint on another local server) streams its answer piece by piece, only when
// the test lets it; a fetch client reads the events, cuts its connection mid-answer and resumes with
// Last-Event-ID. What it receives over all its connections must be events 1..N, each once, in order.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AnthropicMessagesRendererPlugin } from "@ctxpipe/renderers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { counterIds, fixedClock, tempStore } from "../__fixtures__/loop-fixtures.js";
import { ChatLoop } from "../chat/chat-loop.js";
import type { LoopResult } from "../loop/loop-result.js";
import { type LocalModelServer, startLocalModelServer } from "../model/__fixtures__/local-model-server.js";
import { anthropicModel } from "../model/anthropic-model.js";
import { openAICompatibleModel } from "../model/openai-compatible-model.js";
import { type ReceivedEvent, readEventStream } from "./__fixtures__/event-stream-client.js";
import { LoopEventBuffer, type LoopEventBufferOptions } from "./loop-event-buffer.js";

const PIECES = ["Once ", "upon ", "a ", "time."];
const REPLY = PIECES.join("");

let model: LocalModelServer;
let app: Server;
let appUrl: string;
/** Lets the model server send its next piece. */
let gates: Array<() => void>;

beforeEach(async () => {
  model = await startLocalModelServer();
  gates = [];
  const opened = PIECES.map(() => new Promise<void>((resolve) => gates.push(resolve)));
  // Each protocol's stream, by the path the adapter posts to.
  model.answer(async (response, request) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    const anthropic = request.path.endsWith("/messages");
    const send = (type: string, data: unknown) => response.write(anthropic ? `event: ${type}\ndata: ${JSON.stringify({ type, ...(data as object) })}\n\n` : `data: ${JSON.stringify(data)}\n\n`);
    if (anthropic) {
      send("message_start", { message: { id: "msg", type: "message", role: "assistant", model: "claude-haiku-4-5", content: [], usage: { input_tokens: 12, output_tokens: 0 } } });
      send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    }
    for (const [index, piece] of PIECES.entries()) {
      const last = index === PIECES.length - 1;
      if (anthropic) send("content_block_delta", { index: 0, delta: { type: "text_delta", text: piece } });
      else send("chunk", { choices: [{ index: 0, delta: { content: piece }, finish_reason: last ? "stop" : null }] });
      if (!last) await opened[index];
    }
    if (anthropic) {
      send("content_block_stop", { index: 0 });
      send("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 4 } });
      send("message_stop", {});
      response.end();
    } else response.end("data: [DONE]\n\n");
  });
});
afterEach(async () => {
  app?.closeAllConnections();
  await new Promise<void>((resolve) => (app === undefined ? resolve() : app.close(() => resolve())));
  await model.close();
});

/** The two adapters, each talking to the local model server in its own protocol. */
const ADAPTERS = [
  { name: "OpenAI-compatible", loopOptions: () => ({ model: openAICompatibleModel({ model: "gpt-4o-mini", baseURL: `${model.url}/v1`, env: {} }) }) },
  {
    name: "Anthropic Messages",
    loopOptions: () => ({ model: anthropicModel({ model: "claude-haiku-4-5", baseURL: model.url, apiKey: "k", env: {} }), plugins: [new AnthropicMessagesRendererPlugin()] }),
  },
] as const;

async function startApp(options?: LoopEventBufferOptions, adapter: (typeof ADAPTERS)[number] = ADAPTERS[0]): Promise<{ buffer: LoopEventBuffer; done: Promise<LoopResult> }> {
  const buffer = new LoopEventBuffer(options);
  app = createServer((request, response) => buffer.handle(request, response));
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/stream`;
  const { store } = tempStore();
  const loop = new ChatLoop({ ...adapter.loopOptions(), store, newId: counterIds(), now: fixedClock() });
  const done = buffer.track(loop.send({ conversationId: "c1", userInput: "Tell me a story", onEvent: buffer.onEvent }));
  return { buffer, done };
}

const textIs = (delta: string) => (event: ReceivedEvent) => event.event === "text" && event.data.delta === delta;

/** What a UI makes of the events: their ids, the answer's text, and the end. */
function summary(events: ReadonlyArray<ReceivedEvent>) {
  return {
    ids: events.map((event) => event.id),
    sequences: events.map((event) => event.data.sequence),
    types: events.map((event) => event.event),
    text: events.filter((event) => event.event === "text").map((event) => event.data.delta).join(""),
    end: events.at(-1)?.data,
  };
}

function expectedSummary(result: LoopResult) {
  // persisted (user), built, one text event per piece, replied, persisted (answer), end.
  const types = ["persisted", "built", ...PIECES.map(() => "text"), "replied", "persisted", "end"];
  const ids = types.map((_, index) => index + 1);
  return {
    ids,
    sequences: ids,
    types,
    text: REPLY,
    end: { type: "end", sequence: ids.length, status: "completed", text: REPLY, turns: 1, usage: result.usage },
  };
}

describe("LoopEventBuffer over HTTP", () => {
  it.for(ADAPTERS)("$name: a client cut mid-answer resumes with Last-Event-ID: events 1..N, each once, the deltas add up to the reply, then the end", async (adapter) => {
    const { done } = await startApp(undefined, adapter);
    const first = await readEventStream(appUrl, { cut: textIs("Once ") });
    expect(first).toMatchObject({ status: 200, ended: false });
    // The answer goes on while the client is away.
    gates[0]!();
    const second = await readEventStream(appUrl, { lastEventId: first.events.at(-1)!.id, cut: textIs("upon ") });
    gates[1]!();
    gates[2]!();
    const rest = await readEventStream(appUrl, { lastEventId: second.events.at(-1)!.id });
    const result = await done;
    expect(rest).toMatchObject({ status: 200, ended: true });
    expect(summary([...first.events, ...second.events, ...rest.events])).toEqual(expectedSummary(result));
    expect(result).toMatchObject({ status: "completed", text: REPLY });
  });

  it("a client that reconnects after the loop finished gets the rest and the end; once it has the end, 204", async () => {
    const { done } = await startApp();
    const first = await readEventStream(appUrl, { cut: textIs("Once ") });
    for (const gate of gates) gate();
    const result = await done;
    const rest = await readEventStream(appUrl, { lastEventId: first.events.at(-1)!.id });
    const all = [...first.events, ...rest.events];
    expect(summary(all)).toEqual(expectedSummary(result));
    expect(await readEventStream(appUrl, { lastEventId: all.at(-1)!.id })).toEqual({ status: 204, events: [], ended: true });
    // A client that starts late gets the whole stream.
    expect(summary((await readEventStream(appUrl)).events)).toEqual(expectedSummary(result));
  });

  it("?after= resumes as Last-Event-ID does", async () => {
    const { done } = await startApp();
    for (const gate of gates) gate();
    const result = await done;
    const resumed = await readEventStream(`${appUrl}?after=5`);
    expect(resumed.events.map((event) => event.id)).toEqual(expectedSummary(result).ids.slice(5));
  });

  it("a reconnect asking for events no longer kept gets 410 naming what is missing, never a gap", async () => {
    const { done } = await startApp({ maxEvents: 3 });
    const first = await readEventStream(appUrl, { cut: textIs("Once ") });
    expect(first.events.map((event) => event.id)).toEqual([1, 2, 3]);
    for (const gate of gates) gate();
    await done;
    // 8 events and the end (9): the newest 3 events, 6 to 8, are kept.
    expect(await readEventStream(appUrl, { lastEventId: 3 })).toEqual({
      status: 410,
      events: [],
      ended: true,
      body: {
        error: {
          code: "LOOP_EVENTS_EVICTED",
          field: "Last-Event-ID",
          message:
            "Last-Event-ID: events 4 to 5 are no longer kept (the buffer keeps the newest 3 events, at most 8388608 bytes): the stream cannot resume after 3 without a gap; reload the conversation from its log",
        },
      },
    });
    expect((await readEventStream(appUrl, { lastEventId: 5 })).events.map((event) => event.id)).toEqual([6, 7, 8, 9]);
  });

  it("an open connection gets a comment line while no event comes, so that it is not closed as idle", async () => {
    const { done } = await startApp({ heartbeatMs: 1 });
    // The model is held after its first piece: nothing happens until the gate opens.
    const response = await fetch(appUrl);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    while (!received.includes("\n:\n\n")) received += decoder.decode((await reader.read()).value, { stream: true });
    await reader.cancel();
    for (const gate of gates) gate();
    await done;
  });

  it.for([
    { query: "?after=abc", body: { code: "LOOP_EVENTS_RESUME_INVALID", field: "after", message: 'after: must be the id of an event of this stream (a whole number), got "abc"' } },
    { query: "?after=-1", body: { code: "LOOP_EVENTS_RESUME_INVALID", field: "after", message: 'after: must be the id of an event of this stream (a whole number), got "-1"' } },
    { query: "?after=99", body: { code: "LOOP_EVENTS_RESUME_INVALID", field: "after", message: "after: 99 is past the newest event of this stream (9)" } },
  ])("a reconnect from $query is refused with 400", async ({ query, body }) => {
    const { done } = await startApp();
    for (const gate of gates) gate();
    await done;
    expect(await readEventStream(`${appUrl}${query}`)).toEqual({ status: 400, events: [], ended: true, body: { error: body } });
  });
});
