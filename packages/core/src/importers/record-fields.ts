// Typed access to the fields of one object inside a record: a wrong type becomes an issue at the
// field's path, and every read marks the field as used so the rest can go to `metadata.extra`.
import { formatFieldPath } from "../errors/invalid-input-error.js";
import { describeValue } from "./describe-value.js";
import type { ExtraFields } from "./extra-fields.js";
import type { RecordReader } from "./record-reader.js";
import { setOwnField } from "./set-own-field.js";
import { toJsonText } from "./to-json-text.js";

export type FieldPath = ReadonlyArray<string | number>;

// Null counts as absent throughout: JSON stores often write `"field": null` for a missing value.
interface Presence {
  /** Message of the issue raised when the field is absent; without it the field is optional. */
  readonly required?: string;
}

export class RecordFields {
  readonly record: Readonly<Record<string, unknown>>;
  readonly path: FieldPath;
  readonly #reader: RecordReader;
  readonly #used = new Set<string>();

  constructor(reader: RecordReader, record: Readonly<Record<string, unknown>>, path: FieldPath) {
    this.#reader = reader;
    this.record = record;
    this.path = path;
  }

  at(key: string | number): FieldPath {
    return [...this.path, key];
  }

  /** Whether the field holds a value (not absent, not null). Does not mark it as used. */
  has(key: string): boolean {
    const value = this.peek(key);
    return value !== undefined && value !== null;
  }

  /** The raw value, without marking the field as used. Only own fields: "constructor" is not a field. */
  peek(key: string): unknown {
    return Object.hasOwn(this.record, key) ? this.record[key] : undefined;
  }

  /** The raw value, marking the field as used. */
  take(key: string): unknown {
    this.#used.add(key);
    return this.peek(key);
  }

  issue(key: string | number, message: string): void {
    this.#reader.issue(this.at(key), message);
  }

  #absent(key: string, value: unknown, presence: Presence): boolean {
    if (value !== undefined && value !== null) return false;
    if (presence.required !== undefined) this.issue(key, presence.required);
    return true;
  }

  string(key: string, rule: Presence & { readonly nonEmpty?: boolean } = {}): string | undefined {
    const value = this.take(key);
    if (this.#absent(key, value, rule)) return undefined;
    if (typeof value !== "string") return this.#wrong(key, "a string", value);
    if (rule.nonEmpty === true && value.length === 0) return this.#wrong(key, "a non-empty string", value);
    return value;
  }

  /** An identifier: a non-empty string, or a number (stores with numeric ids), as a string. */
  id(key: string, rule: Presence = {}): string | undefined {
    const value = this.take(key);
    if (this.#absent(key, value, rule)) return undefined;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    if (typeof value === "string" && value.length > 0) return value;
    return this.#wrong(key, "a non-empty string or a number", value);
  }

  number(key: string, rule: Presence & { readonly nonNegative?: boolean; readonly integer?: boolean } = {}): number | undefined {
    const value = this.take(key);
    if (this.#absent(key, value, rule)) return undefined;
    if (typeof value !== "number" || !Number.isFinite(value)) return this.#wrong(key, "a finite number", value);
    if (rule.integer === true && !Number.isInteger(value)) return this.#wrong(key, "a whole number", value);
    if (rule.nonNegative === true && value < 0) return this.#wrong(key, "a number of 0 or more", value);
    return value;
  }

  boolean(key: string, rule: Presence = {}): boolean | undefined {
    const value = this.take(key);
    if (this.#absent(key, value, rule)) return undefined;
    if (typeof value !== "boolean") return this.#wrong(key, "true or false", value);
    return value;
  }

  oneOf<T extends string>(key: string, values: ReadonlyArray<T>, rule: Presence = {}): T | undefined {
    const value = this.take(key);
    if (this.#absent(key, value, rule)) return undefined;
    if (typeof value === "string" && (values as ReadonlyArray<string>).includes(value)) return value as T;
    // An unknown label is worth showing (it is usually a typo); long text is cut short.
    const got = typeof value === "string" ? `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"` : describeValue(value);
    return this.#wrong(key, `one of ${values.map((option) => `"${option}"`).join(", ")}`, value, got);
  }

  /**
   * A date as a string. Epoch milliseconds, a Date and MongoDB's `{ "$date": … }` become ISO strings;
   * a string is kept as it is. Anything else is kept as its JSON text: one unreadable date must not
   * refuse a stored log, so the item keeps its position and the build warns, naming the value.
   */
  date(key: string, rule: Presence = {}): string | undefined {
    const value = this.take(key);
    if (this.#absent(key, value, rule)) return undefined;
    return dateText(value);
  }

  /** JSON text: a string is kept verbatim (it may be broken JSON to repair later), anything else is serialised. */
  json(key: string, whenAbsent: string): string {
    const value = this.take(key);
    if (value === undefined || value === null) return whenAbsent;
    if (typeof value === "string") return value;
    if (typeof value === "object") {
      const text = toJsonText(value);
      if (text !== undefined) return text;
      this.issue(key, "cannot be serialised as JSON (a cycle or a BigInt?)");
      return whenAbsent;
    }
    this.issue(key, `expected JSON text or an object, got ${describeValue(value)}`);
    return whenAbsent;
  }

  array(key: string, rule: Presence = {}): ReadonlyArray<unknown> | undefined {
    const value = this.take(key);
    if (this.#absent(key, value, rule)) return undefined;
    if (!Array.isArray(value)) return this.#wrong(key, "an array", value);
    return value;
  }

  object(key: string, extra: ExtraFields, rule: Presence = {}): RecordFields | undefined {
    const value = this.take(key);
    if (this.#absent(key, value, rule)) return undefined;
    return this.#reader.openObject(value, this.at(key), extra);
  }

  /** Marks every field not used so far as used and returns them, in the record's key order. */
  takeRest(): Record<string, unknown> {
    const rest: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(this.record)) {
      if (this.#used.has(key)) continue;
      this.#used.add(key);
      setOwnField(rest, key, value);
    }
    return rest;
  }

  /** Unused fields with their names: plain at the top of a record, as a field path below it. */
  leftovers(): Array<[string, unknown]> {
    return Object.entries(this.record)
      .filter(([key]) => !this.#used.has(key))
      .map(([key, value]) => [this.path.length === 0 ? key : formatFieldPath(this.at(key)), value]);
  }

  #wrong(key: string, expected: string, value: unknown, got = describeValue(value)): undefined {
    this.issue(key, `expected ${expected}, got ${got}`);
    return undefined;
  }
}

// new Date(huge).toISOString() throws a RangeError, so validity is checked first.
function dateText(value: unknown, depth = 0): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" && !Number.isNaN(new Date(value).getTime())) return new Date(value).toISOString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  if (depth === 0 && typeof value === "object" && value !== null && Object.keys(value).length === 1 && Object.hasOwn(value, "$date")) {
    return dateText((value as { $date: unknown }).$date, depth + 1);
  }
  return toJsonText(value) ?? String(value);
}
