// What the XML renderer checks on every request it builds (validateRequest.for("xml")). Its own
// output passes by construction; the checks catch a custom chunk renderer that forgot to escape
// content or closes a tag it did not open.
import { commonRequestRules, type Rule } from "@ctxpipe/core";
import type { XmlRequest } from "./xml-request.js";

// A tag, or a "<" that starts none (which a well-formed message never has outside a tag).
const MARKUP = /<(\/?)([A-Za-z_][A-Za-z0-9_.-]*)((?:\s+[A-Za-z_][A-Za-z0-9_.-]*="[^"<]*")*)\s*(\/?)>|</g;

/** The first problem in the message's tags, or undefined when they nest properly. */
export function findTagProblem(text: string): string | undefined {
  const open: string[] = [];
  MARKUP.lastIndex = 0;
  for (let match = MARKUP.exec(text); match !== null; match = MARKUP.exec(text)) {
    const [whole, closing, name, , selfClosing] = match;
    if (name === undefined) return `a "<" at offset ${match.index} that starts no tag`;
    if (selfClosing === "/") {
      if (closing === "/") return `malformed tag ${whole} at offset ${match.index}`;
      continue;
    }
    if (closing !== "/") {
      open.push(name);
      continue;
    }
    const expected = open.pop();
    if (expected !== name) return expected === undefined ? `</${name}> at offset ${match.index} closes no open tag` : `</${name}> at offset ${match.index} closes <${expected}>`;
  }
  return open.length === 0 ? undefined : `<${open.at(-1)}> is never closed`;
}

const ownRules: ReadonlyArray<Rule<XmlRequest>> = [
  {
    id: "XML-001",
    level: "error",
    requires: "The request has at least one message.",
    check(request, report) {
      if (request.messages.length === 0) report({ message: "the request has no message", path: "messages" });
    },
  },
  {
    id: "XML-002",
    level: "error",
    requires: "Consecutive messages have different roles (the renderer merges chunks of one role into one message).",
    check(request, report) {
      request.messages.forEach((message, index) => {
        if (index > 0 && request.messages[index - 1]!.role === message.role) {
          report({ message: `messages ${index - 1} and ${index} are both ${message.role} messages`, path: `messages[${index}].role`, messageIndex: index });
        }
      });
    },
  },
  {
    id: "XML-003",
    level: "error",
    // System messages are exempt: the system prompt is the application's own text, sent as written.
    requires: "User and assistant messages are well-formed tagged text: tags nest and close, and content holds no raw '<'.",
    check(request, report) {
      request.messages.forEach((message, index) => {
        if (message.role === "system") return;
        const problem = findTagProblem(message.content);
        if (problem !== undefined) report({ message: `message ${index}: ${problem}`, path: `messages[${index}].content`, messageIndex: index });
      });
    },
  },
];

/** Core's rules for any request body (COM-…), then the XML renderer's own (XML-…). */
export const xmlRequestRules: ReadonlyArray<Rule<XmlRequest>> = Object.freeze([...commonRequestRules, ...ownRules]);
