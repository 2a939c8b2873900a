// OpenAI Chat Completions rules on message content
// (reference/providers.md §1: OAI-007, 021, 010, 011, 012, 014, 022).
import { isBlank } from "../../model/is-blank.js";
import type { Rule } from "../../spec/rule.js";
import { checkedMessages } from "../../validation/checked-from.js";
import { rememberClean, visitJson } from "../../validation/visit-json.js";
import { at, describeValue, isRecord, type MessageView, messageViewsOf } from "./openai-chat-message-view.js";

const MAX_STRING_LENGTH = 10_485_760;

/** The content part types each role takes. */
const PART_TYPES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["user", new Set(["text", "image_url", "input_audio", "file"])],
  ["assistant", new Set(["text", "refusal"])],
  ["system", new Set(["text"])],
  ["developer", new Set(["text"])],
  ["tool", new Set(["text"])],
]);

/**
 * Where a message's content is blank: [".content"] when nothing in it is readable, else the blank
 * text parts. Null, missing and [] content are left to OAI-007 and OAI-022.
 */
function blankSpots(content: unknown): string[] {
  if (typeof content === "string") return isBlank(content) ? [".content"] : [];
  if (!Array.isArray(content) || content.length === 0) return [];
  const blank: string[] = [];
  (content as unknown[]).forEach((part, position) => {
    if (!isRecord(part) || (part.type !== "text" && part.type !== "refusal")) return;
    const text = part[part.type];
    if (typeof text === "string" && isBlank(text)) blank.push(`.content[${position}].${part.type}`);
  });
  return blank.length === content.length ? [".content"] : blank;
}

const REJECTED_ELSEWHERE = "OpenAI tolerates it, but Anthropic, Gemini, Bedrock and many compatible servers reject it";

interface BlankContentRule {
  readonly id: string;
  readonly requires: string;
  readonly providerError?: string;
  /** Whether the rule looks at this message. */
  applies(message: MessageView): boolean;
  /** What to do instead, said after what is wrong. */
  readonly advice: string;
}

/** A strict rule that the messages it applies to have no blank content and no blank text part. */
function noBlankContent({ applies, advice, ...rule }: BlankContentRule): Rule<unknown> {
  return {
    ...rule,
    level: "strict",
    check(request, report) {
      for (const message of messageViewsOf(request) ?? []) {
        if (!applies(message)) continue;
        for (const spot of blankSpots(message.fields.content)) {
          const what = spot === ".content" ? `the ${message.role} message's content is empty or only whitespace` : "the text part is empty or only whitespace";
          report({ message: `${what}; ${advice}`, ...at(message, spot) });
        }
      }
    },
  };
}

export const contentPresent: Rule<unknown> = {
  id: "OAI-007",
  level: "error",
  requires: "content is a string or an array of parts; it may be null or missing only on an assistant message with tool_calls (or function_call)",
  providerError: "Invalid value for 'content': expected a string, got null.",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      // Unknown roles are OAI-002's; the deprecated function role may have null content.
      if (message.role === undefined || !PART_TYPES.has(message.role)) continue;
      const content = message.fields.content;
      if (typeof content === "string" || Array.isArray(content)) continue;
      if (content !== undefined && content !== null) report({ message: `content is ${describeValue(content)}; it must be a string or an array of content parts`, ...at(message, ".content") });
      else if (message.role !== "assistant" || !(message.makesCalls || isRecord(message.fields.function_call))) {
        report({ message: `content is ${describeValue(content)}; only an assistant message with tool_calls may leave it out`, ...at(message, ".content") });
      }
    }
  },
};

export const nullContentForCallsOnly = noBlankContent({
  id: "OAI-021",
  requires: "an assistant message that only makes tool calls has content null, not blank text",
  applies: (message) => message.role === "assistant" && message.makesCalls,
  advice: "send content: null when the message only makes tool calls",
});

const shortStrings = new WeakSet<object>();

export const stringsWithinLimit: Rule<unknown> = {
  id: "OAI-010",
  level: "error",
  requires: `no string is longer than ${MAX_STRING_LENGTH} characters`,
  providerError: "Invalid 'input[0].content': string too long. Expected a string with maximum length 10485760, …",
  check(request, reportAll) {
    const { clean, report } = rememberClean(shortStrings, reportAll);
    visitJson(request, {
      value(value, _key, at) {
        if (typeof value !== "string" || value.length <= MAX_STRING_LENGTH) return;
        const path = at();
        const message = /^messages\[(\d+)\]/.exec(path);
        const where = message === null ? { path } : { path, messageIndex: Number(message[1]) };
        report({ message: `the string is ${value.length} characters long; at most ${MAX_STRING_LENGTH} are allowed`, ...where });
      },
    }, "", clean, checkedMessages(request));
  },
};

export const noBlankAssistantMessages = noBlankContent({
  id: "OAI-011",
  requires: "no empty or whitespace-only assistant message without tool calls, nor a blank text part in one",
  applies: (message) => message.role === "assistant" && !message.makesCalls && !isRecord(message.fields.function_call),
  advice: REJECTED_ELSEWHERE,
});

export const noBlankUserOrSystemMessages = noBlankContent({
  id: "OAI-012",
  requires: "no empty or whitespace-only user, system or developer message, nor a blank text part in one",
  // What Anthropic, Gemini, Bedrock and compatible servers answer (OpenAI itself accepts "").
  providerError: "user message must have content",
  applies: (message) => message.role === "user" || message.role === "system" || message.role === "developer",
  advice: REJECTED_ELSEWHERE,
});

export const noBlankToolMessages = noBlankContent({
  id: "OAI-014",
  requires: "no empty or whitespace-only tool message, nor a blank text part in one",
  applies: (message) => message.role === "tool",
  advice: REJECTED_ELSEWHERE,
});

export const contentPartsAllowed: Rule<unknown> = {
  id: "OAI-022",
  level: "error",
  requires: "content is not an empty array, and every part is of a type its role takes (user: text, image_url, input_audio, file; assistant: text, refusal; others: text)",
  check(request, report) {
    for (const message of messageViewsOf(request) ?? []) {
      const allowed = message.role === undefined ? undefined : PART_TYPES.get(message.role);
      const content = message.fields.content;
      if (allowed === undefined || !Array.isArray(content)) continue;
      if (content.length === 0) report({ message: "content is an empty array; send a string or at least one part", ...at(message, ".content") });
      (content as unknown[]).forEach((part, position) => {
        const where = (suffix: string) => at(message, `.content[${position}]${suffix}`);
        if (!isRecord(part)) report({ message: `the content part is ${describeValue(part)}, not an object`, ...where("") });
        else if (typeof part.type !== "string" || !allowed.has(part.type)) report({ message: `a ${message.role} message takes ${[...allowed].join(", ")} parts, not ${describeValue(part.type)}`, ...where(".type") });
        else if (part.type === "text" && typeof part.text !== "string") report({ message: `the text part's text is ${describeValue(part.text)}, not a string`, ...where(".text") });
      });
    }
  },
};
