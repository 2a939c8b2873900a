// A child process for the multi-process and kill -9 tests (run with: node --import tsx
// --conditions=@ctxpipe/source append-child.ts <mode> ...). It prints one line per event on stdout with
// a synchronous write, so a line is out before the next append starts.
import { writeSync } from "node:fs";
import { JsonlStore } from "../jsonl-store.js";
import { offloadedRecord, tokenCountRecord } from "./append-child-records.js";
import { withFileLock } from "../with-file-lock.js";

const [mode, ...args] = process.argv.slice(2);
const say = (text: string) => writeSync(1, `${text}\n`);
const message = (id: string) => ({ id, role: "user" as const, content: `from ${process.pid}: ${id} ${"·".repeat(Number(id.split("-")[1]) % 300)}` });

if (mode === "append") {
  // append <directory> <conversationId> <prefix> <count>: waves of up to 4 concurrent appends of 1 or 3 messages.
  const [directory, conversationId, prefix, count] = args as [string, string, string, string];
  const store = new JsonlStore({ directory });
  let next = 0;
  while (next < Number(count)) {
    const wave: Promise<void>[] = [];
    for (let call = 0; call < 4 && next < Number(count); call++) {
      const size = Math.min(Math.random() < 0.5 ? 1 : 3, Number(count) - next);
      const ids = Array.from({ length: size }, (_, offset) => `${prefix}-${next + offset}`);
      next += size;
      wave.push(store.append(conversationId, size === 1 ? message(ids[0] as string) : ids.map(message)));
    }
    await Promise.all(wave);
  }
  await store.close();
  say("done");
} else if (mode === "forever") {
  // forever <directory> <conversationId> <prefix>: three concurrent message writers, one of offloaded
  // text and one of token counts until killed; prints every acknowledged id (space-separated per
  // append), every acknowledged offloaded handle ("offloaded <handle>"), every acknowledged batch of
  // token counts ("counted <key> <key>…") and every warning ("warning …").
  const [directory, conversationId, prefix] = args as [string, string, string];
  const store = new JsonlStore({ directory, onWarning: (warning) => say(`warning ${warning.message}`) });
  let next = 0;
  const writer = async () => {
    for (;;) {
      const size = Math.random() < 0.3 ? 1 + Math.floor(Math.random() * 20) : 1;
      const ids = Array.from({ length: size }, () => `${prefix}-${next++}`);
      await store.append(conversationId, ids.map(message));
      say(ids.join(" "));
    }
  };
  let nextHandle = 0;
  const offloader = async () => {
    for (;;) {
      const handle = `${prefix}_${nextHandle++}`;
      await store.appendOffloaded(conversationId, [offloadedRecord(handle)]);
      say(`offloaded ${handle}`);
    }
  };
  let nextCount = 0;
  const counter = async () => {
    for (;;) {
      const records = Array.from({ length: 1 + Math.floor(Math.random() * 20) }, () => tokenCountRecord(`${prefix}_${nextCount++}`));
      await store.appendTokenCounts(conversationId, records);
      say(`counted ${records.map((record) => record.key).join(" ")}`);
      // Counts come once per turn in a loop: a pause keeps this writer from starving the others of CPU.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  say("ready");
  await Promise.all([writer(), writer(), writer(), offloader(), counter()]);
} else if (mode === "hold-lock") {
  // hold-lock <lockPath>: takes the lock and keeps it until killed.
  const [lockPath] = args as [string];
  await withFileLock(lockPath, { timeoutMs: 10_000 }, async () => {
    say("locked");
    // A pending promise alone would let Node exit; the timer keeps the process (and the lock) alive.
    await new Promise(() => setInterval(() => undefined, 60_000));
  });
} else {
  throw new Error(`unknown mode ${mode}`);
}
