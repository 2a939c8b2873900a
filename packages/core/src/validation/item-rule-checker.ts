// Checks the built-in item rules in one scan, and on the next build resumes where the two lists
// start to differ: an agent loop's list is last turn's list with a few items at the end, so only
// those are checked again. Gives exactly what checkRules(itemRules, items) gives, in the same order.
import type { Item } from "../model/item.js";
import { sharedPrefixLength } from "../pipeline/list-lineage.js";
import type { Rule, RuleViolation, RuleViolationInput } from "../spec/rule.js";
import { itemRules, PAIRING_MESSAGES } from "./item-rules.js";

type Items = ReadonlyArray<Item>;

/** The rules this checker scans for; the others in a table run through checkRules. */
const SCANNED = new Set(["TOOL_RESULT_WITHOUT_CALL", "TOOL_CALL_WITHOUT_RESULT", "DUPLICATE_TOOL_RESULT", "DUPLICATE_CALL_ID"]);
const PER_ITEM = new Set(["INVALID_CALL_ID", "INVALID_TOOL_NAME", "ARGUMENTS_NOT_OBJECT", "BLANK_TEXT", "LONE_SURROGATE", "STRING_TOO_LONG"]);
const WHOLE_LIST = new Set(["NOT_EMPTY", "STARTS_WITH_TOOL_RESULT", "STARTS_WITH_ASSISTANT", "ENDS_WITH_ASSISTANT"]);

/** A violation and the position whose scan step reported it, so it can be taken back. */
interface Found {
  readonly at: number;
  readonly violation: RuleViolationInput;
}

interface OpenBlock {
  readonly position: number;
  readonly calls: Set<string>;
  readonly answered: Set<string>;
}

export class ItemRuleChecker {
  readonly #byId = new Map<string, Rule<Items>>();
  /**
   * The list scanned last (kept without a copy: the pipeline's lists are not changed once made) and
   * where a scan could start again with nothing open.
   */
  #items: Items = [];
  readonly #quiet: number[] = [];
  #open: OpenBlock | undefined;
  /** First position of each call id, and the order they were added in, to undo a resumed part. */
  readonly #firstCall = new Map<string, number>();
  readonly #callLog: Array<{ id: string; at: number }> = [];
  readonly #found = new Map<string, Found[]>();

  constructor() {
    for (const rule of itemRules) this.#byId.set(rule.id, rule);
  }

  /** Whether `rule` is one of the built-in item rules this checker handles. */
  handles(rule: Rule<Items>): boolean {
    return this.#byId.get(rule.id) === rule;
  }

  /** What checkRules([rule], items) reports, for each built-in rule among `rules`. */
  check(rules: ReadonlyArray<Rule<Items>>, items: Items): Map<Rule<Items>, RuleViolation[]> {
    this.#scan(items);
    const byRule = new Map<Rule<Items>, RuleViolation[]>();
    for (const rule of rules) {
      if (!this.handles(rule)) continue;
      const violations: RuleViolation[] = [];
      byRule.set(rule, violations);
      const add = (violation: RuleViolationInput) =>
        violations.push({ rule: rule.id, level: rule.level, ...(rule.providerError === undefined ? {} : { providerError: rule.providerError }), ...violation });
      if (SCANNED.has(rule.id) || PER_ITEM.has(rule.id)) {
        for (const found of this.#found.get(rule.id) ?? []) add(found.violation);
        // A block still open at the end is closed by the end of the list.
        if (rule.id === "TOOL_CALL_WITHOUT_RESULT" && this.#open !== undefined) this.#reportUnanswered(this.#open, items, add);
      } else if (WHOLE_LIST.has(rule.id)) {
        rule.check(items, add, {});
      }
    }
    return byRule;
  }

  #scan(items: Items): void {
    const shared = sharedPrefixLength(items, this.#items);
    // Resume after the last item that left no block open, at or before the first difference.
    while (this.#quiet.length > 0 && this.#quiet.at(-1)! > shared) this.#quiet.pop();
    const from = this.#quiet.at(-1) ?? 0;
    this.#undo(from);
    this.#open = undefined;
    for (let position = from; position < items.length; position++) this.#step(items[position]!, position, items);
    this.#items = items;
  }

  #undo(from: number): void {
    for (const list of this.#found.values()) while (list.length > 0 && list.at(-1)!.at >= from) list.pop();
    while (this.#callLog.length > 0 && this.#callLog.at(-1)!.at >= from) {
      const { id } = this.#callLog.pop()!;
      this.#firstCall.delete(id);
    }
    if (from === 0) this.#quiet.length = 0;
  }

  #report(ruleId: string, at: number, violation: RuleViolationInput): void {
    const list = this.#found.get(ruleId);
    if (list === undefined) this.#found.set(ruleId, [{ at, violation }]);
    else list.push({ at, violation });
  }

  #reportUnanswered(open: OpenBlock, items: Items, add: (violation: RuleViolationInput) => void): void {
    const assistant = items[open.position]!;
    for (const callId of open.calls) {
      if (!open.answered.has(callId)) add({ message: PAIRING_MESSAGES.callWithoutResult(callId), itemId: assistant.id, position: open.position });
    }
  }

  /** Each per-item rule's findings for one item, from the rule's own check on a one-item list. */
  #perItem(item: Item): PerItemFindings {
    const found: Array<readonly [string, RuleViolationInput]> = [];
    const list = [item];
    for (const ruleId of PER_ITEM) this.#byId.get(ruleId)!.check(list, (violation) => void found.push([ruleId, violation]), {});
    return found.length === 0 ? NONE : found;
  }

  #step(item: Item, position: number, items: Items): void {
    let found = perItemFound.get(item);
    if (found === undefined) {
      found = this.#perItem(item);
      perItemFound.set(item, found);
    }
    for (const [ruleId, violation] of found) this.#report(ruleId, position, { ...violation, position });
    if (item.type === "assistant") {
      for (const call of item.toolCalls) {
        const first = this.#firstCall.get(call.id);
        if (first !== undefined) this.#report("DUPLICATE_CALL_ID", position, { message: PAIRING_MESSAGES.callIdReused(call.id), itemId: item.id, position });
        else {
          this.#firstCall.set(call.id, position);
          this.#callLog.push({ id: call.id, at: position });
        }
      }
    }
    if (item.type === "tool-result") {
      const open = this.#open;
      if (open === undefined || !open.calls.has(item.callId)) {
        this.#report("TOOL_RESULT_WITHOUT_CALL", position, {
          message: PAIRING_MESSAGES.resultWithoutCall(item.callId),
          itemId: item.id,
          position,
        });
      }
      if (open?.answered.has(item.callId)) this.#report("DUPLICATE_TOOL_RESULT", position, { message: PAIRING_MESSAGES.answeredTwice(item.callId), itemId: item.id, position });
      if (open?.calls.has(item.callId)) open.answered.add(item.callId);
      return;
    }
    // Thinking is the assistant's own reasoning, not a message: it does not separate a call from its results.
    if (item.type === "thinking") return;
    if (this.#open !== undefined) this.#reportUnanswered(this.#open, items, (violation) => this.#report("TOOL_CALL_WITHOUT_RESULT", position, violation));
    this.#open = undefined;
    if (item.type === "assistant" && item.toolCalls.length > 0) {
      this.#open = { position, calls: new Set(item.toolCalls.map((call) => call.id)), answered: new Set() };
    } else {
      this.#quiet.push(position + 1);
    }
  }
}

/** What the per-item rules found in an item, by rule, in the rules' order (no position). */
type PerItemFindings = ReadonlyArray<readonly [string, RuleViolationInput]>;
const NONE: PerItemFindings = Object.freeze([]);
// Items are not changed once made (they are frozen), and the rules are the built-in ones: each item
// is checked once, not again on every scan that passes it (the window's cut moved, the list starts elsewhere).
const perItemFound = new WeakMap<Item, PerItemFindings>();
