// A summary record: what the summarize strategy returns for the application to persist, and what later
// builds apply instead of calling the summarizer again (a persisted compression summary). A message
// builder's summary record, `{ summary, messageIds, startMessageId }`, is accepted too and read as one.
import { z } from "zod";
import { textHashOf } from "./fingerprint.js";

const isoDate = z.string().refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO 8601 date string");

/** A record as ctxpipe makes it. */
const ctxpipeRecordSchema = z.strictObject({
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

// Stores often keep numeric ids; they are the same ids as strings.
const storedId = z.union([z.string().min(1), z.number().refine(Number.isFinite, "must be a finite number")]).transform(String);

/**
 * A message builder's summary record (a CompressedSummaryEntity): the summary, the ids of the messages
 * it compressed and the id of the message the history goes on from. Fields a store adds around it
 * (conversation id, update time…) are bookkeeping and are not read.
 */
const messageBuilderRecordSchema = z.looseObject({
  id: storedId.nullish(),
  summary: z.string(),
  messageIds: z.array(storedId),
  /** Missing, or not in the history: the summary is not applied and the history is used as it is, with a warning. */
  startMessageId: storedId.nullish(),
  createdAt: z.union([isoDate, z.number().refine((value) => !Number.isNaN(new Date(value).getTime()), "must be epoch milliseconds"), z.date()]).nullish(),
});

/** A record as the apply step reads it; ctxpipe's own records have every field. */
// A type, not an interface: stores keep records as plain objects with an index signature, which an interface would not fit.
export type SummaryRecord = {
  readonly id: string;
  readonly summary: string;
  /** Empty only for a message builder's record that lists none: it then stands in for everything before its start id. */
  readonly coveredIds: ReadonlyArray<string>;
  /** Undefined only for a message builder's record without a start message id (never applied). */
  readonly startId?: string | undefined;
  readonly sourceTokenCount?: number | undefined;
  /** ISO 8601; undefined for a message builder's record without a date (it counts as the oldest). */
  readonly createdAt?: string | undefined;
  readonly fingerprint?: string | undefined;
};

/** A message builder's summary record, as a store may hold it. */
export interface CompressedSummaryEntity {
  readonly id?: string | number | null | undefined;
  readonly summary: string;
  readonly messageIds: ReadonlyArray<string | number>;
  readonly startMessageId?: string | number | null | undefined;
  readonly createdAt?: string | number | Date | null | undefined;
  readonly [field: string]: unknown;
}

/**
 * What `summaries` and `--summaries` accept: ctxpipe's records, a message builder's, or a record this
 * schema already gave (passed back as it is).
 */
export type SummaryRecordInput = z.input<typeof ctxpipeRecordSchema> | CompressedSummaryEntity | SummaryRecord;

// Records this schema gave, frozen: passed back (as every build does), they are not checked again,
// and one read from a message builder's record, which may lack fields ctxpipe's own records need, stays valid.
const checked = new WeakSet<object>();

function isMessageBuilderRecord(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const has = (key: string) => Object.hasOwn(value, key);
  return !has("coveredIds") && !has("startId") && (has("messageIds") || has("startMessageId"));
}

function fromMessageBuilder(entity: z.output<typeof messageBuilderRecordSchema>): SummaryRecord {
  const startId = entity.startMessageId ?? undefined;
  const createdAt = entity.createdAt === null || entity.createdAt === undefined ? undefined : typeof entity.createdAt === "string" ? entity.createdAt : new Date(entity.createdAt).toISOString();
  // Without an id of its own, the record is named after its content: the same record, the same id.
  const id = entity.id ?? `summary-${textHashOf(JSON.stringify([entity.summary, entity.messageIds, startId ?? null]))}`;
  return {
    id,
    summary: entity.summary,
    coveredIds: Object.freeze(entity.messageIds),
    ...(startId === undefined ? {} : { startId }),
    ...(createdAt === undefined ? {} : { createdAt }),
  };
}

/**
 * Checks a summary record of either shape and gives it as the apply step reads it. Problems name the
 * field (zod path) in the shape that was given.
 */
export const summaryRecordSchema: z.ZodType<SummaryRecord, SummaryRecordInput> = z.unknown().transform((value, context) => {
  if (typeof value === "object" && value !== null && checked.has(value)) return value as SummaryRecord;
  const parsed = isMessageBuilderRecord(value) ? messageBuilderRecordSchema.safeParse(value) : ctxpipeRecordSchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) context.addIssue({ code: "custom", message: issue.message, path: issue.path });
    return z.NEVER;
  }
  const record = Object.freeze("messageIds" in parsed.data ? fromMessageBuilder(parsed.data as z.output<typeof messageBuilderRecordSchema>) : (parsed.data as SummaryRecord));
  checked.add(record);
  return record;
}) as unknown as z.ZodType<SummaryRecord, SummaryRecordInput>;
