// The stream reader on its own, fed a recorded Responses stream cut into pieces: wherever the network
// cuts the bytes (inside a line, a JSON document or a UTF-8 character), the reply is the same.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ModelReply } from "./model-adapter.js";
import { readOpenAIResponsesStream } from "./read-openai-responses-stream.js";

const bytes = new Uint8Array(readFileSync(new URL("./__fixtures__/responses-reasoning-parallel-calls.sse", import.meta.url)));

function streamOf(pieces: ReadonlyArray<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

/** The bytes cut at the given offsets. */
function cutAt(offsets: ReadonlyArray<number>): Uint8Array[] {
  const bounds = [0, ...[...new Set(offsets)].sort((a, b) => a - b), bytes.length];
  return bounds.slice(1).map((end, index) => bytes.subarray(bounds[index]!, end));
}

async function read(pieces: ReadonlyArray<Uint8Array>): Promise<{ reply: ModelReply; texts: string[] }> {
  const texts: string[] = [];
  const reply = await readOpenAIResponsesStream(streamOf(pieces), { adapter: "test", onText: (delta) => texts.push(delta), stored: true });
  return { reply, texts };
}

describe("readOpenAIResponsesStream: the recorded stream cut anywhere", () => {
  // About 10,000 whole reads of the stream: seconds alone, much longer beside a full test run on two cores.
  test("cut in two at every byte boundary, the reply is the one read from the whole stream", { timeout: 180_000 }, async () => {
    const whole = await read([bytes]);
    expect(whole.reply.text).toBe("Je lis les deux fichiers 😀 …");
    expect(whole.reply.toolCalls.map((call) => call.arguments)).toEqual(['{"path":"a.json"}', '{"path":"b.json"}']);
    for (let offset = 1; offset < bytes.length; offset++) {
      const cut = await read(cutAt([offset]));
      // One comparison per cut, so a failure names the offset.
      expect({ offset, ...cut }).toEqual({ offset, ...whole });
    }
  });

  test("cut into many pieces at random places, the reply is the same (property)", async () => {
    const whole = await read([bytes]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 200 }), async (offsets) => {
        expect(await read(cutAt(offsets))).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });
});
