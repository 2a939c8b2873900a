// A client for the loop event stream tests: reads a Server-Sent Events response with fetch, as a
// browser's EventSource would, and can cut the connection at any event.
export interface ReceivedEvent {
  readonly id: number;
  readonly event: string;
  readonly data: Record<string, unknown>;
}

export interface StreamRead {
  readonly status: number;
  readonly events: ReceivedEvent[];
  /** True when the server closed the stream; false when the client cut it. */
  readonly ended: boolean;
  /** The body of a response that is not an event stream. */
  readonly body?: unknown;
}

function parseFrame(frame: string): ReceivedEvent {
  const fields = new Map<string, string>();
  for (const line of frame.split("\n")) {
    const colon = line.indexOf(":");
    fields.set(line.slice(0, colon), line.slice(colon + 2));
  }
  return { id: Number(fields.get("id")), event: fields.get("event") ?? "message", data: JSON.parse(fields.get("data") ?? "null") };
}

/** Reads events until `cut` says to stop (then aborts the request) or the server ends the stream. */
export async function readEventStream(url: string, options: { lastEventId?: number; cut?: (event: ReceivedEvent) => boolean } = {}): Promise<StreamRead> {
  const controller = new AbortController();
  const response = await fetch(url, {
    signal: controller.signal,
    headers: { accept: "text/event-stream", ...(options.lastEventId === undefined ? {} : { "last-event-id": String(options.lastEventId) }) },
  });
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const text = await response.text();
    return { status: response.status, events: [], ended: true, ...(text === "" ? {} : { body: JSON.parse(text) }) };
  }
  const events: ReceivedEvent[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { status: response.status, events, ended: true };
    pending += decoder.decode(value, { stream: true });
    let end = pending.indexOf("\n\n");
    while (end !== -1) {
      const frame = pending.slice(0, end);
      pending = pending.slice(end + 2);
      end = pending.indexOf("\n\n");
      // A comment (the heartbeat) is no event.
      if (frame.startsWith(":")) continue;
      const event = parseFrame(frame);
      events.push(event);
      if (options.cut?.(event) === true) {
        controller.abort();
        await reader.cancel().catch(() => undefined);
        return { status: response.status, events, ended: false };
      }
    }
  }
}
