// Serves one loop call's events to a UI as Server-Sent Events, and lets the UI resume after a cut
// connection: events are kept in memory with their sequence numbers (the newest ones, within bounds),
// a reconnect asking for the events after `Last-Event-ID` (or `?after=`) gets exactly those, then the
// live ones, then an `end` event with how the call ended. A reconnect asking for events no longer kept
// is refused (HTTP 410) rather than served with a gap.
import type { IncomingMessage, ServerResponse } from "node:http";
import { PluginOptionsError } from "@ctxpipe/core";
import { z } from "zod";
import type { LoopEvent, LoopEventListener } from "../loop/loop-events.js";
import type { LoopResult } from "../loop/loop-result.js";
import { LoopEventStreamError } from "./loop-event-stream-error.js";
import { streamEndData, streamEventData } from "./stream-event-data.js";

export const DEFAULT_MAX_STREAM_EVENTS = 10_000;
export const DEFAULT_MAX_STREAM_BYTES = 8 * 1024 * 1024;
export const DEFAULT_STREAM_HEARTBEAT_MS = 15_000;

export interface LoopEventBufferOptions {
  /** Events kept for reconnects (the newest). Default 10,000. */
  readonly maxEvents?: number;
  /** Bytes of encoded events kept for reconnects (the newest; the newest event is always kept). Default 8 MiB. */
  readonly maxBytes?: number;
  /** The JSON `data` of each event. Default streamEventData: the event, a build's request and report left out. */
  readonly data?: (event: LoopEvent) => unknown;
  /**
   * How often an open connection gets a comment line (`:`) while no event comes, so that proxies and
   * load balancers do not close it as idle during a long tool or model call; false for none. Default 15,000 ms.
   */
  readonly heartbeatMs?: number | false;
}

/** One event as the stream sends it. */
export interface RecordedLoopEvent {
  readonly sequence: number;
  /** The event's type, or "end". */
  readonly type: string;
  /** The JSON text sent as the event's data. */
  readonly data: string;
}

const OWNER = "LoopEventBuffer";

const optionsSchema = z.strictObject({
  maxEvents: z.number().int().min(1).optional(),
  maxBytes: z.number().int().min(1).optional(),
  data: z.function().optional(),
  heartbeatMs: z.union([z.number().int().min(1), z.literal(false)]).optional(),
});

interface Frame extends RecordedLoopEvent {
  /** What the frame weighs in the buffer's bounds: its encoded length. */
  readonly bytes: number;
}

/** The event in the event-stream format. */
function frameText({ sequence, type, data }: RecordedLoopEvent): string {
  return `id: ${sequence}\nevent: ${type}\ndata: ${data}\n\n`;
}

function frameOf(sequence: number, type: string, data: string): Frame {
  const frame = { sequence, type, data };
  return { ...frame, bytes: Buffer.byteLength(frameText(frame)) };
}

function encode(data: unknown): string {
  // JSON text has no line breaks outside strings, where they are escaped: it fits one `data:` line.
  return JSON.stringify(data) ?? "null";
}

/** Where a reconnecting client resumes: the `Last-Event-ID` header (what EventSource sends), else `?after=`. */
function resumeFieldOf(request: IncomingMessage): { field: "Last-Event-ID" | "after"; value: string } | undefined {
  const header = request.headers["last-event-id"];
  if (typeof header === "string" && header.trim() !== "") return { field: "Last-Event-ID", value: header.trim() };
  const after = new URL(request.url ?? "/", "http://localhost").searchParams.get("after");
  return after === null ? undefined : { field: "after", value: after.trim() };
}

/**
 * An in-memory replay buffer for one loop call's events, served over any node:http server. Pass
 * `onEvent` to the loop call, `track` its promise, and route the stream's URL to `handle`:
 *
 * ```ts
 * const buffer = new LoopEventBuffer();
 * buffer.track(loop.send({ conversationId, userInput, onEvent: buffer.onEvent }));
 * // in the request handler for this stream's URL:
 * buffer.handle(request, response);
 * ```
 */
export class LoopEventBuffer {
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  readonly #data: (event: LoopEvent) => unknown;
  readonly #heartbeatMs: number | false;
  #frames: Frame[] = [];
  /** Index of the oldest kept frame in #frames (evicted ones before it are dropped in batches). */
  #head = 0;
  #bytes = 0;
  #last = 0;
  #end: Frame | undefined;
  readonly #clients = new Set<ServerResponse>();

  constructor(options: LoopEventBufferOptions = {}) {
    const parsed = optionsSchema.safeParse(options);
    if (!parsed.success) throw new PluginOptionsError(OWNER, z.prettifyError(parsed.error));
    this.#maxEvents = options.maxEvents ?? DEFAULT_MAX_STREAM_EVENTS;
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_STREAM_BYTES;
    this.#data = options.data ?? streamEventData;
    this.#heartbeatMs = options.heartbeatMs ?? DEFAULT_STREAM_HEARTBEAT_MS;
  }

  /** The loop call's listener. Events must come from one call, in order (1, 2, 3…). */
  readonly onEvent: LoopEventListener = (event) => {
    if (this.#end !== undefined) throw new LoopEventStreamError("LOOP_EVENTS_OUT_OF_ORDER", "sequence", `event ${event.sequence} (${event.type}) arrived after the stream ended`);
    if (event.sequence !== this.#last + 1) {
      throw new LoopEventStreamError(
        "LOOP_EVENTS_OUT_OF_ORDER",
        "sequence",
        `event ${event.sequence} (${event.type}) arrived after event ${this.#last}; a buffer records the events of one loop call, in order: make one per call`,
      );
    }
    const frame = frameOf(event.sequence, event.type, encode(this.#data(event)));
    this.#last = event.sequence;
    this.#keep(frame);
    const text = frameText(frame);
    for (const client of this.#clients) client.write(text);
  };

  /** Ends the stream with how the loop call ended: clients get an `end` event, and their connection closes. */
  end(result: LoopResult): void {
    this.#finish({ result });
  }

  /** Ends the stream with the error the loop call threw (an `end` event with status "error"). */
  fail(error: unknown): void {
    this.#finish({ error });
  }

  /** Ends the stream when the loop call settles, and returns the call's own promise. */
  track<R extends LoopResult>(running: Promise<R>): Promise<R> {
    return running.then(
      (result) => {
        this.end(result);
        return result;
      },
      (error: unknown) => {
        this.fail(error);
        throw error;
      },
    );
  }

  /** The sequence of the newest event (0 before the first; the `end` event's once ended). */
  get lastSequence(): number {
    return this.#end?.sequence ?? this.#last;
  }

  /** The sequence of the oldest event kept: 1 until an event is dropped (also before the first arrives). */
  get firstSequence(): number {
    return this.#frames[this.#head]?.sequence ?? this.#end?.sequence ?? this.#last + 1;
  }

  get ended(): boolean {
    return this.#end !== undefined;
  }

  /**
   * The events after `after`, in order, `end` included once the stream ended. Throws
   * LoopEventStreamError when some of them are no longer kept (LOOP_EVENTS_EVICTED) or `after` is not
   * an event of this stream (LOOP_EVENTS_RESUME_INVALID).
   */
  eventsAfter(after: number, field = "after"): ReadonlyArray<RecordedLoopEvent> {
    return this.#framesAfter(after, field).map(({ sequence, type, data }) => ({ sequence, type, data }));
  }

  /**
   * Serves the stream as Server-Sent Events (`id: <sequence>`, `event: <type>`, JSON `data`), starting
   * after the `Last-Event-ID` header or the `after` query parameter (from the first event without
   * either). Answers 400 when that is not an event of this stream, 410 when the events after it are no
   * longer kept, and 204 to a client that already has the `end` event.
   */
  handle(request: IncomingMessage, response: ServerResponse): void {
    const resume = resumeFieldOf(request);
    let frames: Frame[];
    try {
      let after = 0;
      if (resume !== undefined) {
        if (!/^\d+$/.test(resume.value)) {
          throw new LoopEventStreamError("LOOP_EVENTS_RESUME_INVALID", resume.field, `must be the id of an event of this stream (a whole number), got ${JSON.stringify(resume.value)}`);
        }
        after = Number(resume.value);
      }
      frames = this.#framesAfter(after, resume?.field ?? "after");
      if (this.#end !== undefined && after === this.#end.sequence) {
        // 204 tells EventSource not to reconnect: this client has the whole stream.
        response.writeHead(204).end();
        return;
      }
    } catch (error) {
      if (!(error instanceof LoopEventStreamError)) throw error;
      const status = error.code === "LOOP_EVENTS_EVICTED" ? 410 : 400;
      response.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
      response.end(JSON.stringify({ error: { code: error.code, field: error.field, message: error.message } }));
      return;
    }
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      // Reverse proxies such as nginx would otherwise hold the events back.
      "x-accel-buffering": "no",
    });
    response.flushHeaders();
    response.write(frames.map(frameText).join(""));
    if (this.#end !== undefined) {
      response.end();
      return;
    }
    this.#clients.add(response);
    const heartbeat = this.#heartbeatMs === false ? undefined : setInterval(() => response.write(":\n\n"), this.#heartbeatMs).unref();
    response.on("close", () => {
      clearInterval(heartbeat);
      this.#clients.delete(response);
    });
  }

  #framesAfter(after: number, field: string): Frame[] {
    const last = this.lastSequence;
    if (!Number.isSafeInteger(after) || after < 0) throw new LoopEventStreamError("LOOP_EVENTS_RESUME_INVALID", field, `must be the id of an event of this stream (a whole number), got ${String(after)}`);
    if (after > last) throw new LoopEventStreamError("LOOP_EVENTS_RESUME_INVALID", field, `${after} is past the newest event of this stream (${last})`);
    const first = this.firstSequence;
    if (after + 1 < first) {
      throw new LoopEventStreamError(
        "LOOP_EVENTS_EVICTED",
        field,
        `events ${after + 1} to ${first - 1} are no longer kept (the buffer keeps the newest ${this.#maxEvents} events, at most ${this.#maxBytes} bytes): the stream cannot resume after ${after} without a gap; reload the conversation from its log`,
      );
    }
    const from = this.#frames.slice(this.#head + Math.max(0, after + 1 - first));
    return this.#end === undefined || after >= this.#end.sequence ? from : [...from, this.#end];
  }

  #keep(frame: Frame): void {
    this.#frames.push(frame);
    this.#bytes += frame.bytes;
    // The newest event is always kept, however large.
    while (this.#frames.length - this.#head > 1 && (this.#frames.length - this.#head > this.#maxEvents || this.#bytes > this.#maxBytes)) {
      this.#bytes -= this.#frames[this.#head]!.bytes;
      this.#head++;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#frames.length) {
      this.#frames = this.#frames.slice(this.#head);
      this.#head = 0;
    }
  }

  #finish(outcome: { result: LoopResult } | { error: unknown }): void {
    if (this.#end !== undefined) return;
    const sequence = this.#last + 1;
    this.#end = frameOf(sequence, "end", encode(streamEndData(sequence, outcome)));
    const text = frameText(this.#end);
    for (const client of this.#clients) client.end(text);
    this.#clients.clear();
  }
}
