// A one-line progress display on standard error, for long runs on a terminal only: it waits before
// drawing anything (short runs never show it), redraws at most ten times a second, and erases itself.
import type { Writable } from "node:stream";

const DELAY_MS = 250;
const REDRAW_MS = 100;
const WIDTH = 24;

export interface Progress {
  /** A step and how far along it is (0 to 1), or undefined when that is not known. */
  update(step: string, fraction?: number): void;
  /** Erases the line. */
  done(): void;
}

export const SILENT_PROGRESS: Progress = { update() {}, done() {} };

export function progressDisplay(stream: Writable, now: () => number = () => performance.now()): Progress {
  const started = now();
  let lastDraw = Number.NEGATIVE_INFINITY;
  let drawn = false;
  return {
    update(step, fraction) {
      const time = now();
      if (time - started < DELAY_MS || time - lastDraw < REDRAW_MS) return;
      lastDraw = time;
      drawn = true;
      const bar = fraction === undefined ? "" : `[${"#".repeat(Math.round(fraction * WIDTH)).padEnd(WIDTH, "-")}] ${Math.round(fraction * 100)}% `;
      stream.write(`\r\x1b[2Kctxpipe: ${bar}${step}`);
    },
    done() {
      if (drawn) stream.write("\r\x1b[2K");
      drawn = false;
    },
  };
}
