// Property: whatever the chunk size and the lines (long ones, multi-byte characters, a torn tail),
// readLines hands over exactly the complete lines in order, each piece ending with a newline and
// never cutting a character, and says how many bytes it read.
import { isUtf8 } from "node:buffer";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import { readLines } from "./read-lines.js";

const line = fc.string({ unit: fc.constantFrom("a", "é", "构", "😀", "{", '"'), maxLength: 30 }).map((text) => `${text}\n`);

test("property: readLines hands over the complete lines in order, in pieces ending with a newline", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(line, { maxLength: 20 }),
      fc.string({ unit: fc.constantFrom("b", "建"), maxLength: 10 }),
      fc.nat({ max: 40 }),
      fc.integer({ min: 1, max: 64 }),
      async (lines, torn, prefix, chunkBytes) => {
        const directory = await mkdtemp(join(tmpdir(), "ctxpipe-read-lines-"));
        try {
          const path = join(directory, "log");
          const skipped = Buffer.from("x".repeat(prefix));
          const contents = Buffer.from(lines.join("") + torn);
          await writeFile(path, Buffer.concat([skipped, contents]));
          const handle = await open(path, "r");
          const pieces: Buffer[] = [];
          try {
            const result = await readLines(handle, prefix, contents.length, (bytes) => pieces.push(Buffer.from(bytes)), chunkBytes);
            const complete = Buffer.byteLength(lines.join(""));
            expect(result).toStrictEqual({ complete, read: contents.length });
          } finally {
            await handle.close();
          }
          expect(Buffer.concat(pieces).toString("utf8")).toBe(lines.join(""));
          expect(pieces.every((piece) => piece.length > 0 && piece[piece.length - 1] === 0x0a && isUtf8(piece))).toBe(true);
        } finally {
          await rm(directory, { recursive: true, force: true });
        }
      },
    ),
    { numRuns: 100 },
  );
});

test("a file that shrank under the read: what was there is read, and the short count said", async () => {
  const directory = await mkdtemp(join(tmpdir(), "ctxpipe-read-lines-"));
  try {
    const path = join(directory, "log");
    await writeFile(path, "one\ntwo\nthr");
    const handle = await open(path, "r");
    const pieces: string[] = [];
    try {
      expect(await readLines(handle, 0, 100, (bytes) => pieces.push(bytes.toString("utf8")), 4)).toStrictEqual({ complete: 8, read: 11 });
    } finally {
      await handle.close();
    }
    expect(pieces).toStrictEqual(["one\n", "two\n"]);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
});
