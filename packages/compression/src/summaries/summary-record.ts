// A summary record: what the summarize strategy returns for the application to persist, and what later
// builds apply instead of calling the summarizer again (a persisted compression summary).
import { z } from "zod";

const isoDate = z.string().refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO 8601 date string");

export const summaryRecordSchema = z.strictObject({
  /** Unique; the summary item sent in place of the covered items carries it. */
  id: z.string().min(1),
  /** The summary text the model reads. */
  summary: z.string(),
  /** Ids of every stored message the summary stands in for, an earlier summary's included. */
  coveredIds: z.array(z.string().min(1)).min(1, "a summary covers at least one message"),
  /** The first covered message: the summary is applied from here (startMessageId in a stored summary message). */
  startId: z.string().min(1),
  /** Tokens of the covered messages' content when the summary was made. */
  sourceTokenCount: z.number().int().nonnegative(),
  createdAt: isoDate,
  /**
   * A hash of the covered messages' content when the summary was made; a record whose messages were
   * edited since is not applied. Records made elsewhere may leave it out: then only the ids are checked.
   */
  fingerprint: z.string().min(1).optional(),
});

export type SummaryRecord = z.output<typeof summaryRecordSchema>;
