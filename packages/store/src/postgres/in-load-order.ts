// A load's rows in the order the store keeps them: messages before summaries, each by sequence number.
// The load's query has no ORDER BY (see PostgresStore's #queryFrom), so the rows are checked here.

export interface OrderedRow {
  /** 0 for a message, 1 for a summary. */
  readonly kind: number;
  /** A bigint as PostgreSQL writes it: digits without leading zeros. */
  readonly seq: string;
}

/** The rows by kind, then by sequence number; the array itself when it is already in that order. */
export function inLoadOrder<Row extends OrderedRow>(rows: Row[]): Row[] {
  for (let index = 1; index < rows.length; index++) {
    if (compareLoadOrder(rows[index - 1]!, rows[index]!) > 0) return rows.slice().sort(compareLoadOrder);
  }
  return rows;
}

/** A shorter bigint is the smaller one; of two as long, the one first in code-unit order. */
function compareLoadOrder(a: OrderedRow, b: OrderedRow): number {
  return a.kind - b.kind || a.seq.length - b.seq.length || (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0);
}
