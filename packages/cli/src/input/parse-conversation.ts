// Splits a conversation file into its message records, remembering where each came from ("line 12",
// "index 3") so that every later problem can point at it. Three layouts:
//   - JSON lines: one stored message per line (blank lines are skipped);
//   - a JSON array of stored messages (or an object with a `messages` array);
//   - a @ctxpipe/store conversation log: a header line, then {"message":…} and {"summary":…} lines;
//     its summary records are applied like --summaries.
import { LOG_FORMAT, LOG_VERSION } from "@ctxpipe/store";
import type { InputFormat } from "../args/cli-options.js";
import { CliInputError, type CliInputProblem } from "../cli/cli-input-error.js";
import { parseJsonText } from "./parse-json-text.js";

export interface ParsedConversation {
  readonly layout: "jsonl" | "json" | "store-log";
  readonly records: ReadonlyArray<unknown>;
  /** Where records[i] is in the source. */
  readonly locations: ReadonlyArray<string>;
  /** Summary records found in a store log (unchecked: --summaries' checks apply). */
  readonly summaries: ReadonlyArray<{ readonly record: unknown; readonly location: string }>;
  /** Things skipped that a person should know about, e.g. a torn last line of a store log. */
  readonly warnings: ReadonlyArray<string>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStoreHeader(value: unknown): value is { log: Record<string, unknown> } {
  return isObject(value) && Object.keys(value).length === 1 && isObject(value.log) && value.log.format === LOG_FORMAT;
}

function layoutOf(text: string, path: string, format: InputFormat): "json" | "jsonl" {
  if (format !== "auto") return format;
  if (/\.(jsonl|ndjson)$/i.test(path)) return "jsonl";
  if (/\.json$/i.test(path)) return "json";
  return text.trimStart().startsWith("[") ? "json" : "jsonl";
}

export function parseConversation(text: string, path: string, source: string, format: InputFormat): ParsedConversation {
  const layout = layoutOf(text, path, format);
  if (layout === "json") return parseJsonDocument(text, source);
  return parseJsonLines(text, source);
}

function parseJsonDocument(text: string, source: string): ParsedConversation {
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw new CliInputError([{ source, message: `not valid JSON: ${parsed.message}` }]);
  const list = Array.isArray(parsed.value) ? parsed.value : isObject(parsed.value) && Array.isArray(parsed.value.messages) ? parsed.value.messages : undefined;
  if (list === undefined) {
    throw new CliInputError([{ source, message: 'expected a JSON array of stored messages (or an object with a "messages" array); for one message per line, name the file .jsonl or pass --format jsonl' }]);
  }
  const prefix = Array.isArray(parsed.value) ? "index" : "messages index";
  return { layout: "json", records: list, locations: list.map((_, index) => `${prefix} ${index}`), summaries: [], warnings: [] };
}

function parseJsonLines(text: string, source: string): ParsedConversation {
  const records: unknown[] = [];
  const locations: string[] = [];
  const summaries: { record: unknown; location: string }[] = [];
  const warnings: string[] = [];
  const problems: CliInputProblem[] = [];
  let storeLog = false;
  let firstRecord = true;
  let start = 0;
  let lineNumber = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    const terminated = end !== -1;
    if (!terminated) end = text.length;
    lineNumber++;
    const line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    if (line.trim().length === 0) continue;
    const location = `line ${lineNumber}`;
    const parsed = parseJsonText(line);
    if (!parsed.ok) {
      // A store log's last line without its newline is a write a crash cut short: the store skips it too.
      if (storeLog && !terminated) {
        warnings.push(`${source} ${location}: skipped a torn last line (a write cut short by a crash)`);
        continue;
      }
      problems.push({ source, location, message: `not valid JSON: ${parsed.message.replace(/ \(line 1, (column \d+)\)$/, " ($1)")}` });
      continue;
    }
    if (firstRecord) {
      firstRecord = false;
      if (isStoreHeader(parsed.value)) {
        if (parsed.value.log.version !== LOG_VERSION) {
          throw new CliInputError([{ source, location, message: `a ctxpipe conversation log of format version ${JSON.stringify(parsed.value.log.version)}; this CLI reads version ${LOG_VERSION}` }]);
        }
        storeLog = true;
        continue;
      }
    }
    if (!storeLog) {
      records.push(parsed.value);
      locations.push(location);
      continue;
    }
    const value = parsed.value;
    const key = isObject(value) && Object.keys(value).length === 1 ? Object.keys(value)[0] : undefined;
    if (key === "message" && isObject(value)) {
      records.push(value.message);
      locations.push(location);
    } else if (key === "summary" && isObject(value)) {
      summaries.push({ record: value.summary, location });
    } else {
      problems.push({ source, location, message: 'not a ctxpipe log record (expected exactly one key, "message" or "summary")' });
    }
  }
  if (problems.length > 0) throw new CliInputError(problems);
  return { layout: storeLog ? "store-log" : "jsonl", records, locations, summaries, warnings };
}
