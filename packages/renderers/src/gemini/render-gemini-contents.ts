// Renders the item list as Gemini contents (pure). Leading system-role items become the system
// instruction; a system message stored later is moved into it too (or, with laterSystemMessages
// "user", sent where it was as labelled user-side text), and reported; consecutive contents of the same role merge, except that function responses keep a
// content of their own (GEM-021), so a user text after results starts a new user content.
import { isBlank, type Item } from "@ctxpipe/core";
import type { GeminiContent, GeminiPart, GeminiSystemInstruction, GeminiTextPart } from "./gemini-request.js";
import { signsUnsignedCalls, type ThoughtSignatureMode } from "./gemini-thought-signatures.js";
import { renderGeminiItem, systemRoleText } from "./render-gemini-item.js";

export interface GeminiContentsOptions {
  /** Default "auto". */
  readonly thoughtSignatures?: ThoughtSignatureMode;
  /** The model the request is for; "auto" signatures depend on it. */
  readonly model?: string | undefined;
  /**
   * Where a system message stored after the conversation started goes: "system" (default) moves it
   * into the system instruction, the only place Gemini takes system text; "user" sends it where it
   * was, as user-side text labelled "[System message]" (the system instruction, and so the prompt
   * cache, stays the same when an agent loop adds one every turn).
   */
  readonly laterSystemMessages?: "system" | "user";
}

const MOVED = "a system message inside the conversation, moved into the system instruction: Gemini takes system text only in systemInstruction";
const USER_SIDE = "a system message inside the conversation, sent where it was as user-side text labelled [System message]: Gemini takes system text only in systemInstruction";

export interface GeminiItemParts {
  readonly item: Item;
  readonly parts: ReadonlyArray<GeminiPart>;
}

export interface GeminiContents {
  readonly contents: GeminiContent[];
  /** Undefined when no leading system-role item has text. */
  readonly systemInstruction: GeminiSystemInstruction | undefined;
  /** For each item sent in contents, the index of its content (system instruction items are not listed). */
  readonly messageIndexById: Map<string, number>;
  /** The parts each sent item became, system instruction included, in order. */
  readonly itemParts: ReadonlyArray<GeminiItemParts>;
  /** Items that are not sent, and why. */
  readonly dropped: ReadonlyArray<{ readonly item: Item; readonly reason: string }>;
  /** Items sent, but not as and where they were stored (a later system message), and how. */
  readonly repaired: ReadonlyArray<{ readonly item: Item; readonly reason: string }>;
}

export function renderGeminiContents(items: ReadonlyArray<Item>, options: GeminiContentsOptions = {}): GeminiContents {
  const signUnsignedCalls = signsUnsignedCalls(options.thoughtSignatures ?? "auto", options.model);
  const callNames = new Map<string, string>();
  const context = { signUnsignedCalls, callName: (callId: string) => callNames.get(callId) };

  const contents: GeminiContent[] = [];
  const responseContents = new Set<GeminiContent>();
  const systemParts: GeminiTextPart[] = [];
  const messageIndexById = new Map<string, number>();
  const itemParts: GeminiItemParts[] = [];
  const dropped: Array<{ item: Item; reason: string }> = [];
  const repaired: Array<{ item: Item; reason: string }> = [];
  const moveLaterSystem = (options.laterSystemMessages ?? "system") === "system";
  let leading = true;

  for (const item of items) {
    // Thinking is the assistant's reasoning, not a turn: it does not end the leading system items.
    if (item.role !== "system" && item.type !== "thinking") leading = false;
    if ((leading && item.role === "system") || (item.type === "system" && moveLaterSystem)) {
      if (isBlank(item.text)) {
        dropped.push({ item, reason: `a blank ${item.type} item is not sent: Gemini rejects empty text parts` });
        continue;
      }
      const text = systemRoleText(item);
      systemParts.push({ text });
      itemParts.push({ item, parts: [{ text }] });
      if (!leading) repaired.push({ item, reason: MOVED });
      continue;
    }
    if (item.type === "assistant") for (const call of item.toolCalls) callNames.set(call.id, call.name);

    const rendered = renderGeminiItem(item, context);
    if (rendered === undefined) {
      dropped.push({ item, reason: `${item.type} items are not sent to Gemini generateContent` });
      continue;
    }
    if (rendered.parts.length === 0) {
      dropped.push({ item, reason: `the ${item.type} item has nothing to send (blank text, no attachments, no calls): Gemini rejects empty parts` });
      continue;
    }
    const last = contents.at(-1);
    if (last !== undefined && last.role === rendered.role && responseContents.has(last) === rendered.functionResponse) {
      last.parts.push(...rendered.parts);
    } else {
      const content: GeminiContent = { role: rendered.role, parts: [...rendered.parts] };
      contents.push(content);
      if (rendered.functionResponse) responseContents.add(content);
    }
    if (item.type === "system") repaired.push({ item, reason: USER_SIDE });
    messageIndexById.set(item.id, contents.length - 1);
    itemParts.push({ item, parts: rendered.parts });
  }

  return {
    contents,
    systemInstruction: systemParts.length === 0 ? undefined : { parts: systemParts },
    messageIndexById,
    itemParts,
    dropped,
    repaired,
  };
}
