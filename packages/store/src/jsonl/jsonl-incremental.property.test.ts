// Property: however a log's bytes arrive (cut anywhere, even inside a multi-byte character), a store
// that loads after each piece reads every complete line once, keeps the objects it handed out before,
// skips only the unfinished last line, and ends with what a new store reads from the whole file.
import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import type { StoredMessage } from "../stored-message.js";
import { JsonlStore } from "./jsonl-store.js";
import { encodeHeaderLine, encodeRecordLines } from "./log-record.js";

const message = fc.record({
  id: fc.uuid(),
  role: fc.constantFrom("user", "assistant"),
  content: fc.oneof(fc.string({ unit: "grapheme", maxLength: 40 }), fc.constantFrom("构建在 CI 上失败", "😀🎉", "é à ü", "ascii only")),
}).map((fields): StoredMessage => ({ ...fields }));

test("property: loads after each piece of a log cut at any bytes read each line once and end as a fresh load", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), async (messages, cuts) => {
      const directory = await mkdtemp(join(tmpdir(), "ctxpipe-incremental-property-"));
      try {
        const logPath = join(directory, "c.jsonl");
        const bytes = Buffer.from(encodeHeaderLine("c") + encodeRecordLines("message", messages));
        const points = [...new Set(cuts.map((cut) => cut % bytes.length))].sort((a, b) => a - b);
        const store = new JsonlStore({ directory });
        await writeFile(logPath, "");
        let written = 0;
        let seen: ReadonlyArray<StoredMessage> = [];
        for (const point of [...points, bytes.length]) {
          await appendFile(logPath, bytes.subarray(written, point));
          written = point;
          const loaded = await store.load("c");
          // Complete lines so far: the header and the messages whose newline has arrived.
          const lines = bytes.subarray(0, point).toString("latin1").split("\n").length - 1;
          const complete = Math.max(0, lines - 1);
          expect(loaded.messages).toStrictEqual(messages.slice(0, complete));
          expect(loaded.messages.slice(0, seen.length).every((kept, index) => kept === seen[index])).toBe(true);
          expect(loaded.warnings.length).toBe(point === bytes.subarray(0, point).lastIndexOf(0x0a) + 1 ? 0 : 1);
          seen = loaded.messages;
        }
        expect(await new JsonlStore({ directory }).load("c")).toStrictEqual(await store.load("c"));
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    }),
    { numRuns: 60 },
  );
});
