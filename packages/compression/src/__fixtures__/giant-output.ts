// Conversations whose newest turn holds a giant tool output (a log of megabytes), for the tests of
// truncation in the default chain: the same bytes on every run.
import type { ItemInput } from "@ctxpipe/core";
import { seededRandom } from "@ctxpipe/core/testing";

/** The fixtures' seeded random source. */
export const randomFrom = seededRandom;

const LEVELS = ["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"];

/** Log lines, about `chars` UTF-16 units of them, with a line of non-ASCII text now and then. */
export function logText(chars: number, next: () => number): string {
  const lines: string[] = [];
  let length = 0;
  for (let line = 0; length < chars; line++) {
    const text =
      line % 97 === 13
        ? `2026-11-25T10:00:${String(line % 60).padStart(2, "0")}Z WARN résumé upload from 東京 failed 🚀👩‍💻 retry ${line}`
        : `2026-11-25T10:${String(Math.floor(line / 60) % 60).padStart(2, "0")}:${String(line % 60).padStart(2, "0")}Z ${LEVELS[Math.floor(next() * LEVELS.length)]} worker-${Math.floor(next() * 8)} GET /api/items/${Math.floor(next() * 100_000)} ${Math.floor(next() * 900)} ms`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join("\n");
}

/** A few ordinary turns, then the newest: a question, a call, its giant output, the answer. */
export function giantOutputConversation(outputChars: number, seed = 1): ItemInput[] {
  const next = randomFrom(seed);
  const items: ItemInput[] = [];
  for (let turn = 1; turn <= 3; turn++) {
    items.push(
      { id: `u${turn}`, type: "user", text: `Turn ${turn}: list the failing services.` },
      { id: `c${turn}`, type: "assistant", text: "", toolCalls: [{ id: `call_${turn}`, name: "read_log", arguments: `{"page":${turn}}` }] },
      { id: `t${turn}`, type: "tool-result", callId: `call_${turn}`, toolName: "read_log", output: logText(2_000, next) },
      { id: `a${turn}`, type: "assistant", text: `Turn ${turn}: nothing is failing yet.` },
    );
  }
  items.push(
    { id: "u-newest", type: "user", text: "Read the whole deploy log and tell me what broke." },
    { id: "c-newest", type: "assistant", text: "Reading the log.", toolCalls: [{ id: "call_newest", name: "read_log", arguments: '{"page":"all"}' }] },
    { id: "t-newest", type: "tool-result", callId: "call_newest", toolName: "read_log", output: logText(outputChars, next) },
    { id: "a-newest", type: "assistant", text: "The deploy broke on the résumé upload: worker 3 timed out." },
  );
  return items;
}
