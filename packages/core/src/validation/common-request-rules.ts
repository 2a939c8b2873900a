// Rules every provider enforces on any request body (reference/providers.md §0). Renderer packages
// put these in front of their own table.
import { isBlank } from "../model/is-blank.js";
import type { Rule } from "../spec/rule.js";
import { checkedMessages } from "./checked-from.js";
import { rememberClean, visitJson } from "./visit-json.js";

// messages[i] (OpenAI Chat, Anthropic), contents[i] (Gemini), input[i] (OpenAI Responses).
const messageIndexOf = (path: string): number | undefined => {
  const match = /^(?:messages|contents|input)\[(\d+)\]/.exec(path);
  return match === null ? undefined : Number(match[1]);
};

const where = (at: () => string) => {
  const path = at();
  const messageIndex = messageIndexOf(path);
  return messageIndex === undefined ? { path } : { path, messageIndex };
};

const wellFormed = new WeakSet<object>();
const visible = new WeakSet<object>();
const serialisable = new WeakSet<object>();

/** Keys whose string values are text a model reads. */
const TEXT_KEYS: ReadonlySet<string | number | undefined> = new Set(["text", "content", "output", "system"]);

export const commonRequestRules: ReadonlyArray<Rule<unknown>> = [
  {
    id: "COM-001",
    level: "error",
    requires: "every string is well-formed UTF-16, with no lone surrogates",
    providerError: "The request body is not valid JSON: no low surrogate in string: line 1 column 195621 (char 195620)",
    check(request, reportAll) {
      const { clean, report } = rememberClean(wellFormed, reportAll);
      visitJson(request, {
        value(value, key, path) {
          if (typeof key === "string" && !key.isWellFormed()) report({ message: "a property name contains a lone surrogate", ...where(path) });
          if (typeof value === "string" && !value.isWellFormed()) report({ message: "the string contains a lone surrogate", ...where(path) });
        },
      }, "", clean, checkedMessages(request));
    },
  },
  {
    id: "COM-002",
    level: "strict",
    requires: "no text made only of invisible characters (zero-width spaces, BOM, word joiners, soft hyphens)",
    check(request, reportAll) {
      const { clean, report } = rememberClean(visible, reportAll);
      visitJson(request, {
        value(value, key, path) {
          if (typeof value !== "string" || !TEXT_KEYS.has(key) || value.trim() === "" || !isBlank(value)) return;
          report({ message: "the text is only invisible characters, which trim() does not remove", ...where(path) });
        },
      }, "", clean, checkedMessages(request));
    },
  },
  {
    id: "COM-003",
    level: "error",
    requires: "the request is JSON-serialisable: no undefined in arrays, no NaN or Infinity, no functions, no cycles",
    check(request, reportAll) {
      const { clean, report } = rememberClean(serialisable, reportAll);
      visitJson(request, {
        value(value, key, path) {
          if (typeof value === "number" && !Number.isFinite(value)) report({ message: `${value} is not a JSON number`, ...where(path) });
          else if (typeof value === "bigint") report({ message: "a bigint cannot be serialised to JSON", ...where(path) });
          else if (typeof key === "number" && (value === undefined || typeof value === "function" || typeof value === "symbol")) {
            report({ message: `an array holds ${typeof value}, which JSON turns into null`, ...where(path) });
          }
        },
        cycle(path) {
          report({ message: "the value refers back to itself (a cycle)", ...where(path) });
        },
      }, "", clean, checkedMessages(request));
    },
  },
];
