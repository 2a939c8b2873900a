// Renders an assistant item as the Responses items of its turn. With the stored sequence
// (metadata.extra.openaiResponses.sequence) the turn goes back in the order the API returned it:
// reasoning items verbatim, each message as stored (its own text, citations, refusal and phase) while
// the item's text is still the text of its messages, else one message with the item's text; the
// function calls with the item's current calls; other stored items verbatim. Once the text changed, the
// stored messages are no longer what is sent: the turn goes without reasoning and ids. Reasoning is all or
// nothing: the API refuses a reasoning item that is not followed by the item it belongs to (the message,
// a function call or a built-in tool's call), and a message or call sent with its id whose reasoning is
// missing (with store: true the API knows which of its items had reasoning), so ids go only together
// with every reasoning item of the turn, and when one reasoning item cannot be sent none is, nor any id.
// The same holds when a stored id is one the API refuses (another prefix, too long, other characters):
// such a turn goes without reasoning and ids, as does one whose reasoning is followed by a message or
// call stored without an id (a server that gave none), and, with store: false, one whose reasoning came
// back without its encrypted_content. A stored item of another type whose id the API refuses is left
// out, and so is an item_reference with store: false.
import {
  isBlank,
  type ItemOf,
  type OpenAIResponsesMessageWords,
  openAIResponsesExtraOf,
  openAIResponsesMessageWords,
  openAIResponsesTurnText,
  type ToolCall,
} from "@ctxpipe/core";
import { describeValue, inputItemView, isBuiltInCallType, isRecord } from "./openai-responses-input-view.js";
import { idRefusal } from "./openai-responses-item-rules.js";
import type {
  OpenAIResponsesAnnotation,
  OpenAIResponsesFunctionCall,
  OpenAIResponsesInputItem,
  OpenAIResponsesLogprob,
  OpenAIResponsesOutputMessageContent,
  OpenAIResponsesVerbatimItem,
} from "./openai-responses-request.js";
import { storedResponsesItems } from "./stored-responses-items.js";

export interface AssistantTurnOptions {
  /** false when the request says store: false: the API keeps nothing, so only reasoning with its encrypted_content can go back. */
  readonly store?: boolean;
}

export interface RenderedAssistantTurn {
  /** The turn's input items, in order (stored items of other types among them, verbatim); empty when the item has nothing to send. */
  readonly input: ReadonlyArray<OpenAIResponsesInputItem | OpenAIResponsesVerbatimItem>;
  /** What of the item was not sent, and why, for the report (context.report.repair). */
  readonly repairs: ReadonlyArray<string>;
}

type Phase = "commentary" | "final_answer";

/** A message slot's content as stored, when the message goes back as it was. */
interface StoredMessage {
  readonly content: string | ReadonlyArray<unknown>;
  readonly words: OpenAIResponsesMessageWords;
}

/** One item of the turn before rendering; `entry` is its index in the stored sequence, if it came from it. */
type Slot =
  | {
      readonly kind: "message";
      readonly entry?: number;
      readonly id?: string | undefined;
      readonly phase?: Phase | undefined;
      readonly status?: string | undefined;
      /** Set when the message goes back as stored; else it carries the item's text. */
      readonly stored?: StoredMessage;
    }
  | { readonly kind: "call"; readonly entry?: number; readonly call: ToolCall; readonly id?: string | undefined; readonly namespace?: string | undefined }
  | { readonly kind: "reasoning"; readonly entry: number; readonly item: OpenAIResponsesVerbatimItem }
  | { readonly kind: "verbatim"; readonly entry: number; readonly item: OpenAIResponsesVerbatimItem };

const NO_STORED_REASONING =
  "its reasoning is not sent: the Responses API takes back only the reasoning items it returned (with their ids), and none is stored with this item";
const REASONING_TAKEN_OFF =
  "its stored reasoning is not sent, nor the ids of its message and calls: an earlier stage took the reasoning off the item";
const refusedIdOfReasoning = (name: string, refusal: string) =>
  `its reasoning is not sent, nor the ids of its message and calls: the stored id ${name} ${refusal} (the API refuses the request with it, and reasoning goes back only with its ids)`;
const REASONING_WITHOUT_FOLLOWER =
  "its reasoning is not sent, nor the ids of its message and calls: a reasoning item must be followed by the message or function call it belongs to, which is no longer sent as it was (the API refuses the request otherwise)";
const REASONING_FOLLOWER_WITHOUT_ID =
  "its reasoning is not sent, nor the ids of its message and calls: a reasoning item is followed by a message or call stored without an id, which the API does not take for the item the reasoning belongs to (it refuses the request otherwise)";
const TEXT_CHANGED =
  "its stored reasoning is not sent, nor the ids of its message and calls: its text is no longer the text of its stored messages, which therefore do not go back as they were (the API ties reasoning to the messages it returned)";
const REASONING_NOT_ENCRYPTED =
  "its stored reasoning is not sent, nor the ids of its message and calls: with store: false the API keeps nothing, and a reasoning item of this turn was stored without its encrypted_content (ask for include: ['reasoning.encrypted_content'])";
const ITEM_REFERENCE_STORELESS =
  "its stored item_reference is not sent: with store: false the API keeps no item for it to point at";
const CITATIONS_WITHOUT_ID =
  "the citations (annotations) of its stored messages are not sent: a message goes back with its content parts only with its id, and ids go only with the turn's reasoning";
const CITATIONS_TEXT_CHANGED = "the citations (annotations) of its stored messages are not sent: they point into the stored text, which the item no longer holds";
const REFUSAL_TEXT_CHANGED = "the refusal of its stored messages is not sent: it stood beside the stored text, which the item no longer holds";
const otherPartNotSent = (type: string) => `a ${describeValue(type)} part of its stored message is not sent: an assistant message sent back takes output_text and refusal parts only`;

const stringField = (entry: OpenAIResponsesVerbatimItem, key: string): string | undefined => (typeof entry[key] === "string" ? (entry[key] as string) : undefined);

function phaseOf(entry: OpenAIResponsesVerbatimItem): Phase | undefined {
  const phase = entry.phase;
  return phase === "commentary" || phase === "final_answer" ? phase : undefined;
}

/** A message reference's stored content, when it has one (references stored before content was kept have none). */
function storedContentOf(entry: OpenAIResponsesVerbatimItem): string | ReadonlyArray<unknown> | undefined {
  const content = entry.content;
  return typeof content === "string" || Array.isArray(content) ? content : undefined;
}

/**
 * Whether the turn's messages go back as stored: every message reference holds its content, and the
 * item's text is still the text of those messages (the importer's and the loop's join).
 */
function messagesAsStored(item: ItemOf<"assistant">, sequence: ReadonlyArray<OpenAIResponsesVerbatimItem>): boolean {
  const messages = sequence.filter((entry) => entry.type === "message");
  if (messages.length === 0 || messages.some((entry) => storedContentOf(entry) === undefined)) return false;
  return item.text === openAIResponsesTurnText(messages.map((entry) => openAIResponsesMessageWords(storedContentOf(entry))));
}

/** The phase of the one message that stands for several: theirs when they share one. */
function sharedPhase(sequence: ReadonlyArray<OpenAIResponsesVerbatimItem>): Phase | undefined {
  const phases = new Set(sequence.filter((entry) => entry.type === "message").map(phaseOf));
  return phases.size === 1 ? [...phases][0] : undefined;
}

/** The slots of a turn stored with its sequence: the sequence's order, then what the item has that the sequence lacks. */
function sequenceSlots(item: ItemOf<"assistant">, sequence: ReadonlyArray<OpenAIResponsesVerbatimItem>, asStored: boolean): Slot[] {
  const slots: Slot[] = [];
  const used = new Set<number>();
  let messageTaken = false;
  sequence.forEach((entry, index) => {
    if (entry.type === "message") {
      const reference = { kind: "message" as const, entry: index, id: stringField(entry, "id"), status: stringField(entry, "status") };
      if (asStored) {
        const content = storedContentOf(entry)!;
        const words = openAIResponsesMessageWords(content);
        // A message with nothing to say is not sent: the API refuses blank messages (RSP-006).
        if (!isBlank(words.text) || !isBlank(words.refusal ?? "")) slots.push({ ...reference, phase: phaseOf(entry), stored: { content, words } });
        return;
      }
      // The text changed (or the reference predates stored content): one message, where the first one was.
      if (!messageTaken && !isBlank(item.text)) slots.push({ ...reference, phase: sharedPhase(sequence) });
      messageTaken = true;
    } else if (entry.type === "function_call") {
      // A call compression or repair removed is gone from the item: its reference is skipped.
      const callIndex = item.toolCalls.findIndex((call, position) => !used.has(position) && call.id === entry.call_id);
      if (callIndex === -1) return;
      used.add(callIndex);
      slots.push({ kind: "call", entry: index, call: item.toolCalls[callIndex]!, id: stringField(entry, "id"), namespace: stringField(entry, "namespace") });
    } else {
      slots.push({ kind: entry.type === "reasoning" ? "reasoning" : "verbatim", entry: index, item: entry });
    }
  });
  // Text the sequence has no message for opens the turn, so it never stands between a reasoning item and its follower.
  if (!asStored && !messageTaken && !isBlank(item.text)) slots.unshift({ kind: "message" });
  item.toolCalls.forEach((call, position) => {
    if (!used.has(position)) slots.push({ kind: "call", call });
  });
  return messagesBeforeCalls(slots);
}

/** Reasoning items right before a slot, with the slot: a pair the API requires to stay together. */
function startOfRun(slots: ReadonlyArray<Slot>, at: number): number {
  let start = at;
  while (start > 0 && slots[start - 1]!.kind === "reasoning") start--;
  return start;
}

/**
 * Messages stored after the turn's first call move before it, each with its reasoning, in their order:
 * in the input they would stand between the calls and their outputs, which the outputs then do not
 * answer (RSP-004).
 */
function messagesBeforeCalls(slots: Slot[]): Slot[] {
  const firstCall = slots.findIndex((slot) => slot.kind === "call");
  if (firstCall === -1) return slots;
  const moved: Slot[] = [];
  for (let position = slots.length - 1; position > firstCall; position--) {
    if (slots[position]!.kind !== "message") continue;
    const start = startOfRun(slots, position);
    moved.unshift(...slots.splice(start, position - start + 1));
    position = start;
  }
  slots.splice(startOfRun(slots, firstCall), 0, ...moved);
  return slots;
}

/** What a reasoning item may lead to: a message, a function call, or a built-in tool's call (web_search_call …). */
function answersReasoning(slot: Slot): boolean {
  return slot.kind === "message" || slot.kind === "call" || (slot.kind === "verbatim" && isBuiltInCallType(slot.item.type));
}

/**
 * Whether every reasoning slot is followed right away by the item that followed it in the stored sequence
 * (another reasoning item of the run included), and a run of reasoning ends with the message or call it led
 * to; "no id" when that message or call has no id to go with the reasoning's.
 */
function reasoningFollowed(slots: ReadonlyArray<Slot>): "yes" | "no" | "no id" {
  let result: "yes" | "no" | "no id" = "yes";
  for (const [position, slot] of slots.entries()) {
    if (slot.kind !== "reasoning") continue;
    const next = slots[position + 1];
    if (next === undefined || next.entry !== slot.entry + 1 || (next.kind !== "reasoning" && !answersReasoning(next))) return "no";
    if ((next.kind === "message" || next.kind === "call") && (next.id === undefined || next.id === "")) result = "no id";
  }
  return result;
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

/** A stored message's content as output parts: output_text and refusal parts as stored, other parts left out (said in `repairs`). */
function outputContent(content: string | ReadonlyArray<unknown>, repairs: string[]): OpenAIResponsesOutputMessageContent[] {
  if (typeof content === "string") return [{ type: "output_text", text: content, annotations: [] }];
  return content.flatMap((part): OpenAIResponsesOutputMessageContent[] => {
    if (!isRecord(part)) return [];
    // An input_text part (a message written back by an application) says the same as an output_text one.
    if (part.type === "input_text" && typeof part.text === "string") return [{ type: "output_text", text: part.text, annotations: [] }];
    // Only the SDK's keys go, and every output_text carries its annotations: stricter servers refuse anything else.
    if (part.type === "output_text" && typeof part.text === "string") {
      const annotations = Array.isArray(part.annotations) ? (part.annotations as OpenAIResponsesAnnotation[]) : [];
      return [{ type: "output_text", text: part.text, annotations, ...(Array.isArray(part.logprobs) ? { logprobs: part.logprobs as OpenAIResponsesLogprob[] } : {}) }];
    }
    if (part.type === "refusal" && typeof part.refusal === "string") return [{ type: "refusal", refusal: part.refusal }];
    repairs.push(otherPartNotSent(String(part.type)));
    return [];
  });
}

function hasCitations(content: string | ReadonlyArray<unknown>): boolean {
  return Array.isArray(content) && content.some((part) => isRecord(part) && Array.isArray(part.annotations) && part.annotations.length > 0);
}

function rendered(slot: Slot, text: string, withIds: boolean, repairs: string[]): OpenAIResponsesInputItem | OpenAIResponsesVerbatimItem {
  switch (slot.kind) {
    case "message": {
      const phase = slot.phase === undefined ? {} : { phase: slot.phase };
      const { stored } = slot;
      if (!withIds || slot.id === undefined) {
        if (stored !== undefined && hasCitations(stored.content) && !repairs.includes(CITATIONS_WITHOUT_ID)) repairs.push(CITATIONS_WITHOUT_ID);
        // Without its parts, a refusal beside the text goes as words after it: nothing the model said is lost.
        const { text: words, refusal } = stored?.words ?? { text, refusal: undefined };
        const said = isBlank(words) ? (refusal ?? "") : refusal === undefined || isBlank(refusal) ? words : `${words}\n${refusal}`;
        return { type: "message", role: "assistant", content: said, ...phase };
      }
      const status = slot.status === "incomplete" ? "incomplete" : "completed";
      const content = stored === undefined ? [{ type: "output_text" as const, text, annotations: [] }] : outputContent(stored.content, repairs);
      return { type: "message", role: "assistant", id: slot.id, status, content, ...phase };
    }
    case "call": {
      const call: OpenAIResponsesFunctionCall = { type: "function_call", call_id: slot.call.id, name: slot.call.name, arguments: slot.call.arguments };
      const namespace = slot.namespace === undefined ? {} : { namespace: slot.namespace };
      return withIds && slot.id !== undefined ? { type: "function_call", id: slot.id, call_id: call.call_id, name: call.name, arguments: call.arguments, ...namespace } : { ...call, ...namespace };
    }
    case "reasoning":
    case "verbatim":
      return slot.item;
  }
}

/** What the stored messages of a turn whose text changed had that the one message sent cannot carry. */
function lostWithChangedText(sequence: ReadonlyArray<OpenAIResponsesVerbatimItem>): string[] {
  const contents = sequence.flatMap((entry) => (entry.type === "message" && storedContentOf(entry) !== undefined ? [storedContentOf(entry)!] : []));
  const words = contents.map((content) => openAIResponsesMessageWords(content));
  const refusalBesideText = words.some((message) => message.refusal !== undefined) && words.some((message) => !isBlank(message.text));
  return [...(contents.some(hasCitations) ? [CITATIONS_TEXT_CHANGED] : []), ...(refusalBesideText ? [REFUSAL_TEXT_CHANGED] : [])];
}

const isEncrypted = (slot: Slot): boolean => slot.kind === "reasoning" && typeof slot.item.encrypted_content === "string" && slot.item.encrypted_content !== "";

export function renderOpenAIResponsesAssistantTurn(item: ItemOf<"assistant">, options: AssistantTurnOptions = {}): RenderedAssistantTurn {
  const repairs: string[] = [];
  const storeless = options.store === false;
  const hasReasoning = (item.reasoning?.length ?? 0) > 0;
  const stored = storedResponsesItems(openAIResponsesExtraOf(item)?.sequence, "sequence");
  repairs.push(...stored.problems);
  if (stored.items === undefined) {
    const slots: Slot[] = [...(isBlank(item.text) ? [] : [{ kind: "message" as const }]), ...item.toolCalls.map((call) => ({ kind: "call" as const, call }))];
    if (hasReasoning && slots.length > 0) repairs.push(NO_STORED_REASONING);
    return { input: slots.map((slot) => rendered(slot, item.text, false, repairs)), repairs };
  }
  const asStored = messagesAsStored(item, stored.items);
  // The item's text is no longer its stored messages' (an edit, a compression step): one message with the
  // item's text goes instead. A lone message reference stored without its content (before content was
  // kept) has the item's text for its own: that one still goes with its id and reasoning.
  const messages = stored.items.filter((entry) => entry.type === "message");
  const textChanged = !asStored && messages.length > 0 && !(messages.length === 1 && storedContentOf(messages[0]!) === undefined);
  if (textChanged && !isBlank(item.text)) repairs.push(...lostWithChangedText(stored.items));
  // A stored item of another type goes back verbatim, id included: with an id the API refuses, it is left out.
  const slots = sequenceSlots(item, stored.items, asStored).filter((slot) => {
    if (slot.kind !== "verbatim") return true;
    if (storeless && slot.item.type === "item_reference") {
      repairs.push(ITEM_REFERENCE_STORELESS);
      return false;
    }
    const refused = refusedId(slot);
    if (refused !== undefined) repairs.push(`its stored ${slot.item.type} item is not sent: its id ${refused.id} ${refused.refusal}`);
    return refused === undefined;
  });
  const storedReasoning = slots.some((slot) => slot.kind === "reasoning");
  // Reasoning an earlier stage took off the item (an empty list) is taken off for this format too. An
  // item with no reasoning field keeps what its sequence holds: a loop's Chat-shaped log stores a
  // Responses reply's reasoning only there.
  const reasoningKept = item.reasoning === undefined || item.reasoning.length > 0;
  // Ids are sent only with the reasoning, so only a turn with reasoning has ids to check.
  const refused = storedReasoning ? slots.map(refusedId).find((found) => found !== undefined) : undefined;
  const followed = storedReasoning ? reasoningFollowed(slots) : "yes";
  const whyNot = !storedReasoning
    ? undefined
    : !reasoningKept
      ? REASONING_TAKEN_OFF
      : textChanged
        ? TEXT_CHANGED
        : refused !== undefined
          ? refusedIdOfReasoning(refused.name, refused.refusal)
          : storeless && slots.some((slot) => slot.kind === "reasoning" && !isEncrypted(slot))
            ? REASONING_NOT_ENCRYPTED
            : followed === "no"
              ? REASONING_WITHOUT_FOLLOWER
              : followed === "no id"
                ? REASONING_FOLLOWER_WITHOUT_ID
                : undefined;
  const sendReasoning = storedReasoning && whyNot === undefined;
  const sent = sendReasoning ? slots : slots.filter((slot) => slot.kind !== "reasoning");
  if (sent.length > 0) {
    if (whyNot !== undefined) repairs.push(whyNot);
    else if (hasReasoning && !storedReasoning) repairs.push(NO_STORED_REASONING);
  }
  // Ids tie a message or call to its reasoning: with store: true the API refuses one sent without the
  // reasoning it knows the item had, so no id goes without every reasoning item of the turn.
  return { input: sent.map((slot) => rendered(slot, item.text, sendReasoning, repairs)), repairs };
}
