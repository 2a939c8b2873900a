// A real HTTP server on 127.0.0.1 for the adapter tests: each test says how to answer, and the server
// records what the adapter sent (method, path, headers, parsed body) and whether the client hung up.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: unknown;
  /** Resolves when the client closes the connection before the response has finished. */
  readonly clientGone: Promise<void>;
}

export type Answer = (response: ServerResponse, request: ReceivedRequest) => void | Promise<void>;

export interface LocalModelServer {
  /** e.g. "http://127.0.0.1:41234" */
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** How the next requests are answered. */
  answer(answer: Answer): void;
  close(): Promise<void>;
}

export async function startLocalModelServer(): Promise<LocalModelServer> {
  const requests: ReceivedRequest[] = [];
  let answer: Answer = (response) => {
    response.writeHead(500).end("no answer set");
  };
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Recorded as text: the test will say it is not the JSON it expected.
    }
    const clientGone = new Promise<void>((resolve) => response.on("close", () => !response.writableFinished && resolve()));
    const request = { method: incoming.method ?? "", path: incoming.url ?? "", headers: incoming.headers, body, clientGone };
    requests.push(request);
    await answer(response, request);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer(next) {
      answer = next;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(status: number, document: unknown, statusText?: string): Answer {
  return (response) => {
    response.writeHead(status, statusText, { "content-type": "application/json" }).end(JSON.stringify(document));
  };
}

/** The events of an event stream, each `data:` a JSON document (or a raw string such as "[DONE]"). */
export function sseText(events: ReadonlyArray<{ event?: string; data: unknown }>, lineEnd = "\n"): string {
  return events
    .map(({ event, data }) => `${event === undefined ? "" : `event: ${event}${lineEnd}`}data: ${typeof data === "string" ? data : JSON.stringify(data)}${lineEnd}${lineEnd}`)
    .join("");
}

/** Sends the bytes in pieces of `size` bytes, each flushed on its own, so lines and characters arrive cut. */
export function sse(text: string, options: { size?: number; ending?: "end" | "destroy" | "hang" } = {}): Answer {
  return async (response) => {
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    response.flushHeaders();
    const bytes = Buffer.from(text, "utf8");
    const size = options.size ?? bytes.length;
    for (let start = 0; start < bytes.length; start += size) {
      if (response.destroyed) return;
      response.write(bytes.subarray(start, start + size));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const ending = options.ending ?? "end";
    if (ending === "end") response.end();
    else if (ending === "destroy") response.socket?.destroy();
  };
}

/** Never answers: the request hangs until the client gives up. */
export const silence: Answer = () => undefined;
