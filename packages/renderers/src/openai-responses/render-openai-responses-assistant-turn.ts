// Renders an assistant item as the Responses items of its turn. With the stored sequence
// (metadata.extra.openaiResponses.sequence) the turn goes back in the order the API returned it:
// reasoning items verbatim, the message and function calls with their ids but the item's current text
// and calls, other stored items verbatim. Reasoning is all or nothing: the API refuses a reasoning item
// that is not followed by the item it belongs to (the message, a function call or a built-in tool's
// call), and a message or call sent with its id whose reasoning is missing, so when one reasoning item
// of the turn cannot be sent none is, nor any id. The same holds when a stored id is one the API
// refuses (another prefix, too long, other characters): reasoning is sent only with its id and its
// follower's, so such a turn goes without reasoning and ids. A stored item of another type whose id the
// API refuses is left out.
import { isBlank, type ItemOf, openAIResponsesExtraOf, type ToolCall } from "@ctxpipe/core";
import { describeValue, inputItemView, isBuiltInCallType } from "./openai-responses-input-view.js";
import { idRefusal } from "./openai-responses-item-rules.js";
import type { OpenAIResponsesFunctionCall, OpenAIResponsesInputItem, OpenAIResponsesVerbatimItem } from "./openai-responses-request.js";
import { storedResponsesItems } from "./stored-responses-items.js";

export interface RenderedAssistantTurn {
  /** The turn's input items, in order; empty when the item has nothing to send. */
  readonly input: ReadonlyArray<OpenAIResponsesInputItem>;
  /** What of the item was not sent, and why, for the report (context.report.repair). */
  readonly repairs: ReadonlyArray<string>;
}

type Phase = "commentary" | "final_answer";

/** One item of the turn before rendering; `entry` is its index in the stored sequence, if it came from it. */
type Slot =
  | { readonly kind: "message"; readonly entry?: number; readonly id?: string | undefined; readonly phase?: Phase | undefined; readonly status?: string | undefined }
  | { readonly kind: "call"; readonly entry?: number; readonly call: ToolCall; readonly id?: string | undefined }
  | { readonly kind: "reasoning"; readonly entry: number; readonly item: OpenAIResponsesVerbatimItem }
  | { readonly kind: "verbatim"; readonly entry: number; readonly item: OpenAIResponsesVerbatimItem };

const NO_STORED_REASONING =
  "its reasoning is not sent: the Responses API takes back only the reasoning items it returned (with their ids), and none is stored with this item";
const REASONING_TAKEN_OFF =
  "its stored reasoning is not sent, nor the ids of its message and calls: an earlier stage took the reasoning off the item";
const refusedIdOfReasoning = (name: string, refusal: string) =>
  `its reasoning is not sent, nor the ids of its message and calls: the stored id ${name} ${refusal} (the API refuses the request with it, and reasoning goes back only with its ids)`;
const refusedIdWithoutReasoning = (name: string, refusal: string) =>
  `the ids of its message and calls are not sent: the stored id ${name} ${refusal} (the API refuses the request with it)`;
const REASONING_WITHOUT_FOLLOWER =
  "its reasoning is not sent, nor the ids of its message and calls: a reasoning item must be followed by the message or function call it belongs to, which is no longer sent as it was (the API refuses the request otherwise)";

const stringField = (entry: OpenAIResponsesVerbatimItem, key: string): string | undefined => (typeof entry[key] === "string" ? (entry[key] as string) : undefined);

function phaseOf(entry: OpenAIResponsesVerbatimItem): Phase | undefined {
  const phase = entry.phase;
  return phase === "commentary" || phase === "final_answer" ? phase : undefined;
}

/** The slots of a turn stored with its sequence: the sequence's order, then what the item has that the sequence lacks. */
function sequenceSlots(item: ItemOf<"assistant">, sequence: ReadonlyArray<OpenAIResponsesVerbatimItem>): Slot[] {
  const slots: Slot[] = [];
  const used = new Set<number>();
  let messageTaken = false;
  sequence.forEach((entry, index) => {
    if (entry.type === "message") {
      // One text for the turn: it goes where the first message was. A second stored message has no text of its own left.
      if (!messageTaken && !isBlank(item.text)) slots.push({ kind: "message", entry: index, id: stringField(entry, "id"), phase: phaseOf(entry), status: stringField(entry, "status") });
      messageTaken = true;
    } else if (entry.type === "function_call") {
      // A call compression or repair removed is gone from the item: its reference is skipped.
      const callIndex = item.toolCalls.findIndex((call, position) => !used.has(position) && call.id === entry.call_id);
      if (callIndex === -1) return;
      used.add(callIndex);
      slots.push({ kind: "call", entry: index, call: item.toolCalls[callIndex]!, id: stringField(entry, "id") });
    } else {
      slots.push({ kind: entry.type === "reasoning" ? "reasoning" : "verbatim", entry: index, item: entry });
    }
  });
  // Text the sequence has no message for opens the turn, so it never stands between a reasoning item and its follower.
  if (!messageTaken && !isBlank(item.text)) slots.unshift({ kind: "message" });
  item.toolCalls.forEach((call, position) => {
    if (!used.has(position)) slots.push({ kind: "call", call });
  });
  return messageBeforeCalls(slots);
}

/** Reasoning items right before a slot, with the slot: a pair the API requires to stay together. */
function startOfRun(slots: ReadonlyArray<Slot>, at: number): number {
  let start = at;
  while (start > 0 && slots[start - 1]!.kind === "reasoning") start--;
  return start;
}

/**
 * A message stored after the turn's calls is moved before them, with its reasoning: in the input it
 * would stand between the calls and their outputs, which the outputs then do not answer (RSP-004).
 */
function messageBeforeCalls(slots: Slot[]): Slot[] {
  const firstCall = slots.findIndex((slot) => slot.kind === "call");
  const message = slots.findIndex((slot) => slot.kind === "message");
  if (firstCall === -1 || message < firstCall) return slots;
  const moved = slots.splice(startOfRun(slots, message), message - startOfRun(slots, message) + 1);
  slots.splice(startOfRun(slots, firstCall), 0, ...moved);
  return slots;
}

/** What a reasoning item may lead to: the message, a function call, or a built-in tool's call (web_search_call …). */
function answersReasoning(slot: Slot): boolean {
  return slot.kind === "message" || slot.kind === "call" || (slot.kind === "verbatim" && isBuiltInCallType(slot.item.type));
}

/** Whether every reasoning slot is followed right away by the item that followed it in the stored sequence. */
function reasoningFollowed(slots: ReadonlyArray<Slot>): boolean {
  return slots.every((slot, position) => {
    if (slot.kind !== "reasoning") return true;
    const next = slots[position + 1];
    return next !== undefined && answersReasoning(next) && next.entry === slot.entry + 1;
  });
}

/**
 * Why the API would refuse the id the slot would be sent with (`id` as the report shows it, `name` the
 * id and whose it is); undefined when it takes it.
 */
function refusedId(slot: Slot): { id: string; name: string; refusal: string } | undefined {
  const [kind, id] =
    slot.kind === "message"
      ? (["assistant-message", slot.id] as const)
      : slot.kind === "call"
        ? (["function_call", slot.id] as const)
        : ([inputItemView(slot.item, 0).kind, slot.item.id] as const);
  const refusal = idRefusal(kind, id);
  if (refusal === undefined) return undefined;
  const of = slot.kind === "message" ? "of its message" : slot.kind === "call" ? `of its call ${describeValue(slot.call.id)}` : `of its ${slot.item.type} item`;
  return { id: describeValue(id), name: `${describeValue(id)} ${of}`, refusal };
}

function rendered(slot: Slot, text: string, withIds: boolean): OpenAIResponsesInputItem {
  switch (slot.kind) {
    case "message": {
      const phase = slot.phase === undefined ? {} : { phase: slot.phase };
      if (!withIds || slot.id === undefined) return { type: "message", role: "assistant", content: text, ...phase };
      const status = slot.status === "incomplete" ? "incomplete" : "completed";
      return { type: "message", role: "assistant", id: slot.id, status, content: [{ type: "output_text", text, annotations: [] }], ...phase };
    }
    case "call": {
      const call: OpenAIResponsesFunctionCall = { type: "function_call", call_id: slot.call.id, name: slot.call.name, arguments: slot.call.arguments };
      return withIds && slot.id !== undefined ? { type: "function_call", id: slot.id, call_id: call.call_id, name: call.name, arguments: call.arguments } : call;
    }
    case "reasoning":
    case "verbatim":
      return slot.item;
  }
}

export function renderOpenAIResponsesAssistantTurn(item: ItemOf<"assistant">): RenderedAssistantTurn {
  const repairs: string[] = [];
  const hasReasoning = (item.reasoning?.length ?? 0) > 0;
  const stored = storedResponsesItems(openAIResponsesExtraOf(item)?.sequence, "sequence");
  repairs.push(...stored.problems);
  if (stored.items === undefined) {
    const slots: Slot[] = [...(isBlank(item.text) ? [] : [{ kind: "message" as const }]), ...item.toolCalls.map((call) => ({ kind: "call" as const, call }))];
    if (hasReasoning && slots.length > 0) repairs.push(NO_STORED_REASONING);
    return { input: slots.map((slot) => rendered(slot, item.text, false)), repairs };
  }
  // A stored item of another type goes back verbatim, id included: with an id the API refuses, it is left out.
  const slots = sequenceSlots(item, stored.items).filter((slot) => {
    const refused = slot.kind === "verbatim" ? refusedId(slot) : undefined;
    if (refused !== undefined) repairs.push(`its stored ${(slot as { item: OpenAIResponsesVerbatimItem }).item.type} item is not sent: its id ${refused.id} ${refused.refusal}`);
    return refused === undefined;
  });
  const storedReasoning = slots.some((slot) => slot.kind === "reasoning");
  // Reasoning an earlier stage took off the item (an empty list) is taken off for this format too. An
  // item with no reasoning field keeps what its sequence holds: a loop's Chat-shaped log stores a
  // Responses reply's reasoning only there.
  const reasoningKept = item.reasoning === undefined || item.reasoning.length > 0;
  const refused = slots.map(refusedId).find((found) => found !== undefined);
  const sendReasoning = storedReasoning && reasoningKept && refused === undefined && reasoningFollowed(slots);
  const sent = sendReasoning ? slots : slots.filter((slot) => slot.kind !== "reasoning");
  // Ids tie a message or call to its reasoning: without every reasoning item of the turn, none is sent.
  const withIds = refused === undefined && (sendReasoning || !storedReasoning);
  if (sent.length > 0) {
    if (storedReasoning && !sendReasoning) {
      repairs.push(!reasoningKept ? REASONING_TAKEN_OFF : refused !== undefined ? refusedIdOfReasoning(refused.name, refused.refusal) : REASONING_WITHOUT_FOLLOWER);
    } else {
      if (refused !== undefined) repairs.push(refusedIdWithoutReasoning(refused.name, refused.refusal));
      if (hasReasoning && !storedReasoning) repairs.push(NO_STORED_REASONING);
    }
  }
  return { input: sent.map((slot) => rendered(slot, item.text, withIds)), repairs };
}
