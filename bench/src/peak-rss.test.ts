import { expect, test } from "vitest";
import { formatMegabytes, peakRss, peakRssFromStatus } from "./peak-rss.js";

test.for([
  { status: "Name:\tnode\nVmPeak:\t 1200000 kB\nVmHWM:\t  412000 kB\nVmRSS:\t  300000 kB\n", expected: 412000 * 1024 },
  { status: "VmHWM: 1 kB", expected: 1024 },
  { status: "Name:\tnode\nVmRSS:\t  300000 kB\n", expected: undefined },
  { status: "", expected: undefined },
])("peakRssFromStatus reads VmHWM in bytes: $expected", ({ status, expected }) => {
  expect(peakRssFromStatus(status)).toBe(expected);
});

test("this process's peak is at least its resident set now", () => {
  const now = process.memoryUsage().rss;
  expect(peakRss()).toBeGreaterThanOrEqual(now);
});

test("megabytes are rounded and grouped", () => {
  expect([0, 412_000_000, 1_234_567_890].map(formatMegabytes)).toEqual(["0 MB", "412 MB", "1,235 MB"]);
});
