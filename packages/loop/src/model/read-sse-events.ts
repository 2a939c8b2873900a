// Reads a server-sent-events body (the WHATWG event-stream format) as events. The bytes may be cut
// anywhere by the network: inside a UTF-8 character, inside a line, or between a CR and its LF.
export interface SseEvent {
  /** The `event:` field; "message" when the event has none. */
  readonly event: string;
  /** The event's `data:` lines joined by "\n". */
  readonly data: string;
}

const LF = 10;
const CR = 13;

/** Turns decoded text into events, keeping an unfinished line (and a CR that may precede an LF) for later. */
class SseParser {
  #pending = "";
  #data: string[] = [];
  #event = "";

  push(text: string, final: boolean): SseEvent[] {
    const buffer = this.#pending + text;
    const events: SseEvent[] = [];
    let lineStart = 0;
    for (let index = 0; index < buffer.length; index++) {
      const code = buffer.charCodeAt(index);
      if (code !== LF && code !== CR) continue;
      // A CR at the end of what has arrived may be the first half of a CRLF.
      if (code === CR && index === buffer.length - 1 && !final) break;
      this.#line(buffer.slice(lineStart, index), events);
      if (code === CR && buffer.charCodeAt(index + 1) === LF) index++;
      lineStart = index + 1;
    }
    this.#pending = buffer.slice(lineStart);
    if (final) {
      // The format drops an event the stream ends inside; servers that omit the last blank line are
      // common enough that the event is kept: the readers check that the answer is complete anyway.
      if (this.#pending !== "") this.#line(this.#pending, events);
      this.#pending = "";
      this.#line("", events);
    }
    return events;
  }

  #line(line: string, events: SseEvent[]): void {
    if (line === "") {
      if (this.#data.length > 0) events.push({ event: this.#event === "" ? "message" : this.#event, data: this.#data.join("\n") });
      this.#data = [];
      this.#event = "";
      return;
    }
    if (line.startsWith(":")) return; // a comment, e.g. a keep-alive
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.#data.push(value);
    else if (field === "event") this.#event = value;
  }
}

/**
 * Yields the events of an event-stream body. Leaving the loop early (break, return, a throw) cancels
 * the body, which releases the connection.
 */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent, void, undefined> {
  const reader = body.getReader();
  // The decoder keeps the bytes of a character cut in two until the rest arrives, and drops a leading BOM.
  const decoder = new TextDecoder("utf-8");
  const parser = new SseParser();
  let finished = false;
  try {
    while (!finished) {
      const { done, value } = await reader.read();
      finished = done;
      const events = parser.push(done ? decoder.decode() : decoder.decode(value, { stream: true }), done);
      for (const event of events) yield event;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
