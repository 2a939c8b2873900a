// Persisted summary records (--summaries FILE, or the summary lines of a store log), checked against
// the compression package's schema; every problem names the line or index, the record's id and field.
import { type SummaryRecord, summaryRecordSchema } from "@ctxpipe/compression";
import { CliInputError, type CliInputProblem } from "../cli/cli-input-error.js";
import { formatFieldPath } from "./format-field-path.js";
import { parseConversation } from "./parse-conversation.js";

export function checkSummaryRecords(entries: ReadonlyArray<{ readonly record: unknown; readonly location: string }>, source: string): SummaryRecord[] {
  const records: SummaryRecord[] = [];
  const problems: CliInputProblem[] = [];
  const seen = new Map<string, string>();
  for (const { record, location } of entries) {
    const id = typeof (record as { id?: unknown })?.id === "string" ? (record as { id: string }).id : undefined;
    const parsed = summaryRecordSchema.safeParse(record);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = formatFieldPath(issue.path);
        problems.push({ source, location, ...(id === undefined ? {} : { id }), ...(field === undefined ? {} : { field }), message: issue.message });
      }
      continue;
    }
    const earlier = seen.get(parsed.data.id);
    if (earlier !== undefined) {
      problems.push({ source, location, id: parsed.data.id, field: "id", message: `duplicate id: ${earlier} has the same id` });
      continue;
    }
    seen.set(parsed.data.id, location);
    records.push(parsed.data);
  }
  if (problems.length > 0) throw new CliInputError(problems);
  return records;
}

/** A --summaries file: a JSON array of records, or one record per line. */
export function parseSummaryRecords(text: string, path: string, source: string): SummaryRecord[] {
  const parsed = parseConversation(text, path, source, "auto");
  const entries = parsed.layout === "store-log" ? parsed.summaries : parsed.records.map((record, index) => ({ record, location: parsed.locations[index] ?? `index ${index}` }));
  return checkSummaryRecords(entries, source);
}
