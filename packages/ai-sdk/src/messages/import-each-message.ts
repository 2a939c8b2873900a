// The loop both importers share: each message read once into items (remembered per message object),
// every problem of the list collected with its index, id and field, one InvalidInputError at the end.
import { type InputIssue, InvalidInputError, type Item, type ItemInput } from "@ctxpipe/core";
import type { MessageMemo } from "./message-memo.js";
import { freezeItem } from "./message-memo.js";
import { describeValue, type FieldPath, type IssueSink } from "./read-model-content.js";

class MessageIssues implements IssueSink {
  readonly issues: InputIssue[] = [];
  readonly #index: number;
  readonly #id: string | undefined;

  constructor(index: number, id: string | undefined) {
    this.#index = index;
    this.#id = id;
  }

  issue(path: FieldPath, message: string): void {
    this.issues.push({ index: this.#index, id: this.#id, path: [...path], message });
  }
}

export interface EachMessage {
  /** The error's source, e.g. "AI SDK model message". */
  readonly source: string;
  /** What the list holds, for the error when it is not a list: "ModelMessages". */
  readonly noun: string;
  readonly memo: MessageMemo;
  /** The message's id, or where and why it has none. */
  readonly idOf: (message: unknown, index: number) => string | { readonly path: FieldPath; readonly problem: string };
  /** The message's items; problems go to `issues`. */
  readonly read: (message: unknown, id: string, issues: IssueSink) => ItemInput[];
}

/** The items of every message, in order (frozen); throws one InvalidInputError naming every problem. */
export function importEachMessage(messages: unknown, each: EachMessage): Item[] {
  if (!Array.isArray(messages)) {
    throw new InvalidInputError(each.source, [{ index: 0, id: undefined, path: [], message: `expected an array of ${each.noun}, got ${describeValue(messages)}` }]);
  }
  const items: Item[] = [];
  const issues: InputIssue[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    const id = each.idOf(message, index);
    if (typeof id !== "string") {
      const sink = new MessageIssues(index, undefined);
      sink.issue(id.path, id.problem);
      issues.push(...sink.issues);
      continue;
    }
    const known = each.memo.lookup(message, index, id);
    if (known !== undefined) {
      items.push(...known);
      continue;
    }
    const sink = new MessageIssues(index, id);
    const read = each.read(message, id, sink);
    if (sink.issues.length > 0) {
      issues.push(...sink.issues);
      continue;
    }
    const frozen = read.map((item) => freezeItem(item as Item));
    each.memo.remember(message, index, id, frozen);
    items.push(...frozen);
  }
  if (issues.length > 0) throw new InvalidInputError(each.source, issues);
  return items;
}
