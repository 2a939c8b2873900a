import { checkRules } from "@ctxpipe/core";
import { describe, expect, test } from "vitest";
import { unescapeXml } from "./xml-escaping.js";
import { findTagProblem, xmlRequestRules } from "./xml-request-rules.js";

describe("findTagProblem", () => {
  test.for<[string, string | undefined]>([
    ['<a id="1">\ntext &lt; more\n</a>', undefined],
    ['<a>\n<b x="&quot;"/>\n</a>\n\n<c>\n</c>', undefined],
    ["<a>\nx < y\n</a>", 'a "<" at offset 6 that starts no tag'],
    ["<a>\n</b>", "</b> at offset 4 closes <a>"],
    ["</a>", "</a> at offset 0 closes no open tag"],
    ["<a>\n<b>\n</b>", "<a> is never closed"],
    ['<a x="1>', 'a "<" at offset 0 that starts no tag'],
  ])("%j → %s", ([text, problem]) => {
    expect(findTagProblem(text)).toBe(problem);
  });
});

describe("xmlRequestRules", () => {
  test("find an empty request, two messages of one role, and broken tags outside the system message", () => {
    expect(checkRules(xmlRequestRules, { messages: [] }).map((violation) => violation.rule)).toEqual(["XML-001"]);
    const request = {
      messages: [
        { role: "system" as const, content: "Prompt with a < b, sent as written" },
        { role: "user" as const, content: "<a>\n</a>" },
        { role: "user" as const, content: "<b>" },
      ],
    };
    expect(checkRules(xmlRequestRules, request)).toEqual([
      { rule: "XML-002", level: "error", message: "messages 1 and 2 are both user messages", path: "messages[2].role", messageIndex: 2 },
      { rule: "XML-003", level: "error", message: "message 2: <b> is never closed", path: "messages[2].content", messageIndex: 2 },
    ]);
  });
});

describe("unescapeXml", () => {
  test("reads numeric references and leaves what is no reference alone", () => {
    expect(unescapeXml("&#x1F600; &#65; &bogus; & &amp;lt; &#x110000;")).toBe("😀 A &bogus; & &lt; &#x110000;");
  });
});
