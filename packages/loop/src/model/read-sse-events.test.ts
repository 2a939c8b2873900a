import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { readSseEvents, type SseEvent } from "./read-sse-events.js";

/** A body that delivers `bytes` cut at the given offsets, one read per piece. */
function bodyOf(bytes: Uint8Array, cuts: ReadonlyArray<number> = []): ReadableStream<Uint8Array> {
  const offsets = [...new Set([0, ...cuts.filter((cut) => cut > 0 && cut < bytes.length), bytes.length])].sort((a, b) => a - b);
  const pieces = offsets.slice(1).map((end, index) => bytes.subarray(offsets[index], end));
  return new ReadableStream({
    pull(controller) {
      const piece = pieces.shift();
      if (piece === undefined) controller.close();
      else controller.enqueue(piece);
    },
  });
}

async function eventsOf(text: string, cuts: ReadonlyArray<number> = []): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSseEvents(bodyOf(new TextEncoder().encode(text), cuts))) events.push(event);
  return events;
}

describe("readSseEvents", () => {
  test("reads data, event names, multi-line data, comments and the fields it does not know", async () => {
    const text = ": keep-alive\n\nevent: ping\ndata: {}\n\ndata: line one\ndata:line two\nid: 7\nretry: 10\n\ndata\n\nevent: lonely\n\n";
    expect(await eventsOf(text)).toEqual([
      { event: "ping", data: "{}" },
      { event: "message", data: "line one\nline two" },
      { event: "message", data: "" },
    ]);
  });

  test("drops a leading BOM and keeps a final event that has no blank line after it", async () => {
    expect(await eventsOf("\uFEFFdata: a\n\ndata: [DONE]")).toEqual([
      { event: "message", data: "a" },
      { event: "message", data: "[DONE]" },
    ]);
  });

  test("a CR and its LF in two reads make one line end, not two", async () => {
    const text = "data: a\r\n\r\ndata: b\r\n\r\n";
    const bytes = new TextEncoder().encode(text);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await eventsOf(text, [cut])).toEqual([
        { event: "message", data: "a" },
        { event: "message", data: "b" },
      ]);
    }
  });

  test("property: however the bytes are cut and whatever the line ends, the same events come out", async () => {
    const line = fc.string({ unit: fc.oneof(fc.constantFrom("é", "中", "😀", " ", ":", "\\"), fc.string({ minLength: 1, maxLength: 1 })) }).map((text) => text.replace(/[\r\n]/g, ""));
    const event = fc.record({ event: fc.option(fc.constantFrom("message_start", "content_block_delta", "error"), { nil: undefined }), lines: fc.array(line, { minLength: 1, maxLength: 3 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 6 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.boolean(),
        fc.array(fc.nat({ max: 400 }), { maxLength: 30 }),
        async (events, end, comments, cuts) => {
          const text = events
            .map(({ event, lines }) => {
              const name = event === undefined ? "" : `event: ${event}${end}`;
              const comment = comments ? `: keep-alive${end}` : "";
              return `${comment}${name}${lines.map((data) => `data: ${data}${end}`).join("")}${end}`;
            })
            .join("");
          const expected = events.map(({ event, lines }) => ({ event: event ?? "message", data: lines.join("\n") }));
          expect(await eventsOf(text, cuts)).toEqual(expected);
        },
      ),
    );
  });

  test("leaving the loop early cancels the body", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: 1\n\ndata: 2\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readSseEvents(body)) {
      expect(event.data).toBe("1");
      break;
    }
    expect(cancelled).toBe(true);
  });
});
