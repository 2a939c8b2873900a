// Tool-call ids every provider accepts and that are unique in the request (OAI-005/009/020,
// ANT-009/010): ids from another provider ("fc_…" Responses ids over 40 characters, "functions.eval:301",
// a call id reused by a later message) are rewritten, and so is the result that answers the call.
// Runs after pairing, so each call's results directly follow the message that made it.
import type { Item, ItemOf } from "../../model/item.js";
import type { StageContext } from "../../pipeline/stage-context.js";
import { CALL_ID_PATTERN, MAX_CALL_ID_LENGTH } from "../../validation/portable-limits.js";

/** FNV-1a, 32 bits: a short deterministic suffix that keeps truncated ids apart. */
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return (value >>> 0).toString(36).padStart(7, "0");
}

/** A portable id made from `original` that `taken` does not hold: `original` itself when it is one. */
export function freshId(original: string, taken: (id: string) => boolean): string {
  const safe = original.replace(/[^a-zA-Z0-9_-]/g, "_") || "call";
  if (safe.length <= MAX_CALL_ID_LENGTH && !taken(safe)) return safe;
  const stem = safe.slice(0, MAX_CALL_ID_LENGTH - 8);
  for (let attempt = 0; ; attempt++) {
    const candidate = `${stem}_${hash(`${original}#${attempt}`)}`;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * `reserved`: for a list that is the later part of a longer one (see repair-memo.ts), the call ids of
 * the part before it, which its calls must not reuse and its rewritten ids must not take.
 */
export function rewriteCallIds(items: ReadonlyArray<Item>, context: StageContext, reserved: ReadonlySet<string> = new Set()): Item[] | undefined {
  const used = new Set<string>();
  let needed = false;
  for (const item of items) {
    if (item.type !== "assistant") continue;
    for (const call of item.toolCalls) {
      if (!CALL_ID_PATTERN.test(call.id) || used.has(call.id)) needed = true;
      used.add(call.id);
    }
  }
  if (!needed) return undefined;

  // Ids that stay as they are, claimed first so a rewritten id never takes one of them.
  const claimed = new Set<string>();
  const taken = (id: string) => claimed.has(id) || reserved.has(id);
  const keeps = new Set<ItemOf<"assistant">["toolCalls"][number]>();
  for (const item of items) {
    if (item.type !== "assistant") continue;
    for (const call of item.toolCalls) {
      if (CALL_ID_PATTERN.test(call.id) && !taken(call.id)) {
        claimed.add(call.id);
        keeps.add(call);
      }
    }
  }

  const output: Item[] = [];
  // The calls of the last call-making message, old and new ids by position: its results follow it in
  // call order, so the k-th result answers the k-th call even when one message repeats an id.
  let calls: Array<{ from: string; to: string }> = [];
  let slot = 0;
  for (const item of items) {
    if (item.type === "assistant" && item.toolCalls.length > 0) {
      slot = 0;
      calls = [];
      const toolCalls = item.toolCalls.map((call) => {
        if (keeps.has(call)) {
          calls.push({ from: call.id, to: call.id });
          return call;
        }
        const id = freshId(call.id, taken);
        claimed.add(id);
        calls.push({ from: call.id, to: id });
        return { ...call, id };
      });
      const renamed = calls.filter((call) => call.from !== call.to);
      if (renamed.length === 0) {
        output.push(item);
        continue;
      }
      const list = renamed.map(({ from, to }) => `"${from}" → "${to}"`).join(", ");
      context.report.repair(item, `call ids rewritten (${list}): ids must be unique, at most 40 letters, digits, "_" or "-"`);
      output.push({ ...item, toolCalls });
    } else if (item.type === "tool-result") {
      // In call order when paired; otherwise the first call with that id.
      const call = calls[slot]?.from === item.callId ? calls[slot] : calls.find((candidate) => candidate.from === item.callId);
      slot++;
      if (call === undefined || call.to === item.callId) {
        output.push(item);
        continue;
      }
      context.report.repair(item, `answers call "${item.callId}", whose id was rewritten "${call.to}"`);
      output.push({ ...item, callId: call.to });
    } else {
      if (item.type !== "thinking") calls = [];
      output.push(item);
    }
  }
  return output;
}
