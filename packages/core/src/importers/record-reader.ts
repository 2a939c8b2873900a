// Reads one input record: knows its index and id, and collects every problem found in it with the
// field path, so an importer reports all issues of an input at once instead of stopping at the first.
import type { InputIssue } from "../errors/invalid-input-error.js";
import { describeValue } from "./describe-value.js";
import type { ExtraFields } from "./extra-fields.js";
import { isPlainObject } from "./is-plain-object.js";
import { type FieldPath, RecordFields } from "./record-fields.js";

export class RecordReader {
  readonly index: number;
  readonly id: string | undefined;
  readonly issues: InputIssue[] = [];

  constructor(index: number, id: string | undefined) {
    this.index = index;
    this.id = id;
  }

  issue(path: FieldPath, message: string): void {
    this.issues.push({ index: this.index, id: this.id, path, message });
  }

  /** Starts reading an object; its unread fields end up in `extra`. */
  open(record: Record<string, unknown>, path: FieldPath, extra: ExtraFields): RecordFields {
    const view = new RecordFields(this, record, path);
    extra.track(view);
    return view;
  }

  /** Like open(), for a value that still has to be checked to be an object. */
  openObject(value: unknown, path: FieldPath, extra: ExtraFields, expected = "an object"): RecordFields | undefined {
    if (isPlainObject(value)) return this.open(value, path, extra);
    this.issue(path, `expected ${expected}, got ${describeValue(value)}`);
    return undefined;
  }
}
