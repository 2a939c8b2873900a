// How long a busy provider asks the client to wait before trying again, read from an error response:
// OpenAI's `retry-after-ms`, else `Retry-After` in seconds or as an HTTP date.
const SECONDS = /^\s*\d+(\.\d+)?\s*$/;

/** Milliseconds to wait (0 for a date already past); undefined when the headers say nothing readable. */
export function readRetryAfter(headers: Headers, now: number): number | undefined {
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null && SECONDS.test(milliseconds)) return Math.ceil(Number(milliseconds));
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  if (SECONDS.test(value)) return Math.ceil(Number(value) * 1000);
  // An HTTP date names its month; Date.parse alone would read "-5" as a year.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
