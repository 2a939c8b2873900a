import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { progressDisplay } from "./progress-display.js";

function display() {
  const stream = new PassThrough();
  let written = "";
  stream.on("data", (chunk: Buffer) => (written += chunk.toString()));
  let time = 0;
  const progress = progressDisplay(stream, () => time);
  return { progress, advance: (ms: number) => (time += ms), written: () => written };
}

describe("progressDisplay", () => {
  it("draws nothing for a short run", () => {
    const { progress, advance, written } = display();
    progress.update("reading", 0.1);
    advance(200);
    progress.update("building: compress", 0.4);
    progress.done();
    expect(written()).toBe("");
  });

  it("draws a bar once the run is long, redraws at most every 100 ms, and erases itself", () => {
    const { progress, advance, written } = display();
    advance(300);
    progress.update("parsing", 0.2);
    advance(50);
    progress.update("importing", 0.3);
    advance(60);
    progress.update("building: filter");
    progress.done();
    expect(written()).toBe("\r\x1b[2Kctxpipe: [#####-------------------] 20% parsing\r\x1b[2Kctxpipe: building: filter\r\x1b[2K");
  });
});
