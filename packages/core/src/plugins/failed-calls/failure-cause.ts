// What a persisted model failure says, in a few fixed words: the code and a short cause read from its
// text (HTTP status, timeout, rate limit…). Only these words may reach the model, never the raw error
// text, which models imitate.

export interface FailureFacts {
  /** The failure's code, e.g. "LLM_HTTP_ERROR", when the item or its text names one. */
  readonly code: string | undefined;
  /** A short cause from a fixed vocabulary, e.g. "overloaded", "HTTP 401 unauthorized"; undefined when none is recognised. */
  readonly cause: string | undefined;
}

const STATUS_WORDS: Readonly<Record<number, string>> = {
  400: "bad request",
  401: "unauthorized",
  402: "payment required",
  403: "forbidden",
  404: "not found",
  409: "conflict",
  413: "request too large",
  422: "unprocessable request",
  500: "internal server error",
  502: "bad gateway",
  503: "service unavailable",
};

/** Causes recognised by status, code or words, first match wins: the specific before the general; else the status's own words. */
const CAUSES: ReadonlyArray<{ readonly cause: string; readonly statuses?: ReadonlyArray<number>; readonly codes?: ReadonlyArray<string>; readonly pattern: RegExp }> = [
  { cause: "rate limited", statuses: [429], pattern: /rate[\s_-]?limit|too many requests/i },
  { cause: "overloaded", statuses: [529], pattern: /overload/i },
  { cause: "timed out", statuses: [408, 504], codes: ["LLM_TIMEOUT"], pattern: /\btime[sd]?[\s_-]?out\b|\btimeout|deadline exceeded|did not answer in time/i },
  { cause: "network error", codes: ["LLM_NETWORK_ERROR"], pattern: /\bnetwork\b|ECONNRESET|ECONNREFUSED|ENOTFOUND|socket hang up|connection (?:reset|refused|closed|error)/i },
  { cause: "cancelled", codes: ["LLM_ABORTED"], pattern: /\baborted\b|\bcancell?ed\b/i },
  { cause: "unreadable response", codes: ["LLM_BAD_RESPONSE"], pattern: /malformed (?:response|answer)|invalid json/i },
  { cause: "request too long", pattern: /context[\s_-](?:length|window)|maximum context|prompt is too long|too many tokens/i },
  { cause: "authentication failed", pattern: /invalid[\s_-]api[\s_-]key|authentication|unauthori[sz]ed/i },
];

const CODE_LINE = /^\s*-\s*Code:\s*([A-Za-z][\w.-]*)/m;
const LEADING_CODE = /^\s*(LLM_[A-Z_]+)\b/;
const STATUS_LINE = /^\s*-\s*Status:\s*([1-5]\d\d)\b/m;
const STATUS_IN_TEXT = /\b(?:HTTP(?:\/\d(?:\.\d)?)?|status(?: code)?)\s*:?\s*([1-5]\d\d)\b/i;

/** Reads code and cause from a failure's text and the code stored with it (if any). */
export function failureFacts(text: string, storedCode: string | undefined): FailureFacts {
  const code = storedCode ?? CODE_LINE.exec(text)?.[1] ?? LEADING_CODE.exec(text)?.[1];
  const statusText = STATUS_LINE.exec(text)?.[1] ?? STATUS_IN_TEXT.exec(text)?.[1];
  const status = statusText === undefined ? undefined : Number(statusText);
  const haystack = code === undefined ? text : `${code}\n${text}`;
  const matched = CAUSES.find((entry) => (status !== undefined && entry.statuses?.includes(status)) || (code !== undefined && entry.codes?.includes(code)) || entry.pattern.test(haystack));
  if (matched !== undefined) return { code, cause: matched.cause };
  if (status === undefined) return { code, cause: undefined };
  const words = STATUS_WORDS[status];
  return { code, cause: words === undefined ? `HTTP ${status}` : `HTTP ${status} ${words}` };
}
