import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LoopEvent } from "../loop/loop-events.js";
import { LoopEventBuffer } from "./loop-event-buffer.js";
import { LoopEventStreamError } from "./loop-event-stream-error.js";

const text = (sequence: number, delta = "x"): LoopEvent => ({ type: "text", delta, sequence });

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("LoopEventBuffer", () => {
  it.for([
    { options: { maxEvents: 0 }, field: "maxEvents" },
    { options: { maxBytes: 1.5 }, field: "maxBytes" },
    { options: { data: "json" }, field: "data" },
    { options: { heartbeatMs: 0 }, field: "heartbeatMs" },
    { options: { heartbeatMs: true }, field: "heartbeatMs" },
    { options: { maxEvent: 3 }, field: "" },
  ])("rejects bad options naming the field: $options", ({ options, field }) => {
    const error = errorOf(() => new LoopEventBuffer(options as never));
    expect(error).toMatchObject({ name: "PluginOptionsError", code: "OPTIONS_INVALID" });
    expect((error as Error).message).toMatch(/^Invalid options for LoopEventBuffer:\n/);
    if (field !== "") expect((error as Error).message).toContain(`→ at ${field}`);
    else expect((error as Error).message).toContain('Unrecognized key: "maxEvent"');
  });

  it.for([
    { name: "a gap", events: [text(1), text(3)], message: "sequence: event 3 (text) arrived after event 1; a buffer records the events of one loop call, in order: make one per call" },
    { name: "a second call", events: [text(1), text(2), text(1)], message: "sequence: event 1 (text) arrived after event 2; a buffer records the events of one loop call, in order: make one per call" },
  ])("refuses events out of order ($name) with a typed error", ({ events, message }) => {
    const buffer = new LoopEventBuffer();
    const error = errorOf(() => {
      for (const event of events) buffer.onEvent(event);
    });
    expect(error).toBeInstanceOf(LoopEventStreamError);
    expect(error).toMatchObject({ code: "LOOP_EVENTS_OUT_OF_ORDER", field: "sequence", message });
  });

  it("refuses an event after the end, and ends once", () => {
    const buffer = new LoopEventBuffer();
    buffer.onEvent(text(1));
    buffer.end({ status: "completed", text: "x", turns: 1, persisted: [], usage: { inputTokens: 1, outputTokens: 2 } });
    buffer.fail(new Error("ignored: the stream already ended"));
    expect(errorOf(() => buffer.onEvent(text(2)))).toMatchObject({ code: "LOOP_EVENTS_OUT_OF_ORDER", message: "sequence: event 2 (text) arrived after the stream ended" });
    expect(buffer.eventsAfter(0)).toEqual([
      { sequence: 1, type: "text", data: '{"type":"text","delta":"x","sequence":1}' },
      { sequence: 2, type: "end", data: '{"type":"end","sequence":2,"status":"completed","text":"x","turns":1,"usage":{"inputTokens":1,"outputTokens":2}}' },
    ]);
  });

  it("a loop call that throws ends the stream with status error and the error's name, code and message", async () => {
    const buffer = new LoopEventBuffer();
    const failure = Object.assign(new Error("disk full"), { code: "EIO" });
    await expect(buffer.track(Promise.reject(failure))).rejects.toBe(failure);
    expect(buffer.eventsAfter(0)).toEqual([{ sequence: 1, type: "end", data: '{"type":"end","sequence":1,"status":"error","error":{"name":"Error","code":"EIO","message":"disk full"}}' }]);
  });

  it("for any events and bounds: resuming after any id gives exactly the events after it, or a typed refusal when some were dropped", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 2000 }),
        fc.boolean(),
        fc.nat(),
        (deltas, maxEvents, maxBytes, ended, pick) => {
          const buffer = new LoopEventBuffer({ maxEvents, maxBytes });
          for (const [index, delta] of deltas.entries()) buffer.onEvent(text(index + 1, delta));
          if (ended) buffer.end({ status: "completed", text: "", turns: 0, persisted: [], usage: { inputTokens: 0, outputTokens: 0 } });
          const last = buffer.lastSequence;
          expect(last).toBe(deltas.length + (ended ? 1 : 0));
          const kept = buffer.eventsAfter(buffer.firstSequence - 1);
          // Bounded: at most maxEvents events (and the end), the newest always among them.
          expect(kept.filter((event) => event.type !== "end").length).toBeLessThanOrEqual(maxEvents);
          if (deltas.length > 0) expect(kept.some((event) => event.sequence === deltas.length)).toBe(true);
          const after = pick % (last + 1);
          if (after + 1 >= buffer.firstSequence) {
            expect(buffer.eventsAfter(after).map((event) => event.sequence)).toEqual(Array.from({ length: last - after }, (_, index) => after + index + 1));
          } else {
            expect(errorOf(() => buffer.eventsAfter(after))).toMatchObject({ code: "LOOP_EVENTS_EVICTED", field: "after" });
          }
          expect(errorOf(() => buffer.eventsAfter(last + 1))).toMatchObject({ code: "LOOP_EVENTS_RESUME_INVALID", message: `after: ${last + 1} is past the newest event of this stream (${last})` });
        },
      ),
      { seed: 23 },
    );
  });
});
