// A 2 MB service log, the same bytes every run: steady request lines, one error deep in the middle,
// and a last line that says where the first error was (as many services do when they shut down).
const LINES = 26_000;
const ERROR_LINE = 14_377;

export const ERROR_TEXT = "ERROR payments: card processor timed out after 30000 ms (order 88412, retry 3 of 3)";

export function serviceLog(): string {
  const lines: string[] = [];
  let errorOffset = 0;
  let offset = 0;
  for (let line = 1; line <= LINES; line++) {
    const time = `2026-03-02T${String(8 + Math.floor(line / 3600)).padStart(2, "0")}:${String(Math.floor(line / 60) % 60).padStart(2, "0")}:${String(line % 60).padStart(2, "0")}Z`;
    const text = line === ERROR_LINE ? `${time} ${ERROR_TEXT}` : `${time} INFO  http: GET /api/orders/${(line * 7919) % 100_000} 200 in ${(line * 37) % 250} ms (worker ${line % 8})`;
    if (line === ERROR_LINE) errorOffset = offset;
    lines.push(text);
    offset += text.length + 1;
  }
  lines.push(`2026-03-02T14:40:01Z FATAL shutting down: first error at offset ${errorOffset} of this log`);
  return `${lines.join("\n")}\n`;
}
