// Item-local repairs, the ones that need no neighbours: lone surrogates (COM-001), text made only of
// whitespace or invisible characters (COM-002, ANT-011/012, GEM-005), strings longer than a
// provider accepts (OAI-010), empty tool results (OAI-014, ANT-017), tool names outside the portable
// alphabet (OAI-008, GEM-020) and call arguments that are not a JSON object (OAI-016).
import { isBlank } from "../../model/is-blank.js";
import type { Item, ItemOf } from "../../model/item.js";
import type { ToolCall } from "../../model/tool-call.js";
import { normalizeArguments } from "./normalize-arguments.js";
import { sanitizeToolName } from "./sanitize-name.js";
import { truncateText } from "./truncate-text.js";

export interface SanitizeOptions {
  /** Output given to a tool result that returned nothing. */
  readonly emptyResultText: string;
  readonly maxStringLength: number;
}

export type Sanitized = { readonly item: Item; readonly reasons: ReadonlyArray<string> } | { readonly drop: string };

/** Item types whose text is all there is to send: blank text leaves nothing. */
const TEXT_ONLY: ReadonlySet<Item["type"]> = new Set(["system", "summary", "error", "thinking", "user-intervention"]);

/** Keys wellFormed leaves alone. */
function isKeptAsItIs(key: string): boolean {
  // Ids and dates identify the item; metadata is never sent. A call id and the callId of its result
  // stay as they are so they still match; rewrite-call-ids makes both portable.
  return key === "id" || key === "callId" || key === "createdAt" || key === "metadata" || key === "coveredIds" || key === "fromId" || key === "toId";
}

/**
 * The value with every string made well-formed; the same reference when nothing needed it. Walks by
 * index and for-in rather than forEach and Object.entries: this runs on every item of a history the
 * process has not seen, and an array per key was most of its cost.
 */
export function wellFormed<T>(value: T): T {
  if (typeof value === "string") return (value.isWellFormed() ? value : value.toWellFormed()) as T;
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      // A hole stays a hole to the walk (as forEach skips it); a copy made reads it as undefined.
      if (!(index in value)) continue;
      const element: unknown = value[index];
      const fixed = wellFormed(element);
      if (fixed === element) continue;
      copy ??= [...value];
      copy[index] = fixed;
    }
    return (copy ?? value) as T;
  }
  let copy: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key) || isKeptAsItIs(key)) continue;
    const element = record[key];
    const fixed = wellFormed(element);
    if (fixed === element) continue;
    copy ??= { ...record };
    copy[key] = fixed;
  }
  return (copy ?? value) as T;
}

function sanitizeCall(call: ToolCall, position: number, options: SanitizeOptions, reasons: string[]): ToolCall {
  let fixed = call;
  // A call stored without an id is named by its position; pair-empty-call-ids gives it an id later.
  const label = call.id === "" ? `call ${position + 1} (no id)` : `call "${call.id}"`;
  const name = sanitizeToolName(call.name);
  if (name !== call.name) {
    fixed = { ...fixed, name };
    reasons.push(`tool name "${call.name}" of ${label} renamed "${name}": providers accept letters, digits, "_" and "-" only`);
  }
  if (fixed.arguments.length > options.maxStringLength) {
    // Cut text is no JSON object any more: it goes under "_raw", cut short enough that the escaped
    // form still fits.
    let room = options.maxStringLength - 16;
    let wrapped = JSON.stringify({ _raw: truncateText(fixed.arguments, room) });
    while (wrapped.length > options.maxStringLength) {
      room -= wrapped.length - options.maxStringLength + 16;
      wrapped = JSON.stringify({ _raw: truncateText(fixed.arguments, room) });
    }
    reasons.push(`arguments of ${label} cut to ${options.maxStringLength} characters and sent as {"_raw": …}`);
    return { ...fixed, arguments: wrapped };
  }
  const normalized = normalizeArguments(fixed.arguments);
  if (normalized !== undefined) {
    fixed = { ...fixed, arguments: normalized };
    reasons.push(
      fixed.arguments === "{}" ? `empty arguments of ${label} sent as {}` : `arguments of ${label} are not a JSON object; sent as {"_raw": …}`,
    );
  }
  return fixed;
}

export function sanitizeItem(original: Item, options: SanitizeOptions): Sanitized {
  const reasons: string[] = [];
  let item = wellFormed(original);
  if (item !== original) reasons.push("replaced lone surrogates (half of a cut emoji or symbol) with U+FFFD");

  if ("text" in item && item.text.length > options.maxStringLength) {
    item = { ...item, text: truncateText(item.text, options.maxStringLength) } as Item;
    reasons.push(`text cut to ${options.maxStringLength} characters`);
  }

  switch (item.type) {
    case "user": {
      const hasAttachments = item.attachments !== undefined && item.attachments.length > 0;
      if (!isBlank(item.text)) break;
      if (!hasAttachments) return { drop: "user message with no visible text and no attachments" };
      if (item.text !== "") {
        item = { ...item, text: "" };
        reasons.push("text was only whitespace or invisible characters; the attachments are sent alone");
      }
      break;
    }
    case "assistant": {
      if (item.toolCalls.length === 0) {
        if (isBlank(item.text)) return { drop: "assistant message with no visible text and no tool calls" };
        break;
      }
      const calls = item.toolCalls.map((call, position) => sanitizeCall(call, position, options, reasons));
      const text = item.text !== "" && isBlank(item.text) ? "" : item.text;
      if (text !== item.text) reasons.push("text was only whitespace or invisible characters; only the tool calls are sent");
      if (text !== item.text || calls.some((call, index) => call !== (item as ItemOf<"assistant">).toolCalls[index])) {
        item = { ...item, text, toolCalls: calls };
      }
      break;
    }
    case "tool-result": {
      let output = truncateText(item.output, options.maxStringLength);
      if (output !== item.output) reasons.push(`output cut to ${options.maxStringLength} characters`);
      if (isBlank(output)) {
        output = options.emptyResultText;
        reasons.push("the tool returned no visible output; sent a placeholder so the result is not empty");
      }
      const toolName = item.toolName === undefined ? undefined : sanitizeToolName(item.toolName);
      if (output !== item.output || toolName !== item.toolName) item = { ...item, output, ...(toolName === undefined ? {} : { toolName }) };
      break;
    }
    default:
      if (TEXT_ONLY.has(item.type) && isBlank(item.text)) return { drop: `${item.type} item with no visible text` };
  }
  return { item, reasons };
}
