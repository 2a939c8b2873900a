// Collects what an importer did not use from a record for the item's `metadata.extra`: unread fields
// (nested ones named by field path, e.g. "tool_calls[0].index") and values set aside explicitly.
import type { RecordFields } from "./record-fields.js";
import { setOwnField } from "./set-own-field.js";

export class ExtraFields {
  readonly #views: RecordFields[] = [];
  readonly #kept: Array<[string, unknown]> = [];

  /** Registers an object being read; whatever it has left unread at toRecord() time becomes extra. */
  track(view: RecordFields): void {
    this.#views.push(view);
  }

  keep(key: string, value: unknown): void {
    this.#kept.push([key, value]);
  }

  /** Takes over another collector's fields, when one item carries what was read for two. */
  absorb(other: ExtraFields): void {
    this.#views.push(...other.#views);
    this.#kept.push(...other.#kept);
  }

  /** The extra fields, or undefined when there are none (so metadata stays `{}`). */
  toRecord(): Record<string, unknown> | undefined {
    const extra: Record<string, unknown> = {};
    let count = 0;
    const add = (key: string, value: unknown) => {
      // A set-aside value never overwrites a stored field of the same name.
      let name = key;
      for (let suffix = 2; Object.hasOwn(extra, name); suffix++) name = `${key}#${suffix}`;
      setOwnField(extra, name, value);
      count++;
    };
    for (const view of this.#views) for (const [key, value] of view.leftovers()) add(key, value);
    for (const [key, value] of this.#kept) add(key, value);
    return count === 0 ? undefined : extra;
  }
}
