// Memory figures: a process's resident set now, and its peak (VmHWM in /proc/<pid>/status on Linux;
// process.resourceUsage().maxRSS elsewhere), printed in megabytes.
import { readFileSync } from "node:fs";

/** The peak resident set, in bytes, from the text of /proc/<pid>/status; undefined without a VmHWM line. */
export function peakRssFromStatus(status: string): number | undefined {
  const match = /^VmHWM:\s*(\d+)\s*kB$/m.exec(status);
  return match === null ? undefined : Number(match[1]) * 1024;
}

/** This process's peak resident set so far, in bytes. */
export function peakRss(): number {
  try {
    const peak = peakRssFromStatus(readFileSync("/proc/self/status", "utf8"));
    if (peak !== undefined) return peak;
  } catch {
    // No /proc (macOS): Node's own figure, in kilobytes.
  }
  return process.resourceUsage().maxRSS * 1024;
}

/** "412 MB". */
export function formatMegabytes(bytes: number): string {
  return `${Math.round(bytes / 1e6).toLocaleString("en-US")} MB`;
}
