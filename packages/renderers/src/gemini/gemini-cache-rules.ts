// Gemini's rule on explicit context caching: a request that names a cached content (cachedContent)
// may not set a system instruction, tools or a tool config of its own; they belong to the cache.
import type { Rule } from "@ctxpipe/core";
import { asRecord, configField } from "./read-gemini-request.js";

/** The fields a cached content holds, which the request itself may then not set. */
const CACHED_FIELDS = ["systemInstruction", "tools", "toolConfig"] as const;

export const cachedContentAlone: Rule<unknown> = {
  id: "GEM-022",
  level: "error",
  requires: "a request that names cachedContent sets no systemInstruction, tools or toolConfig: they belong to the cached content",
  providerError:
    "CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config. Proposed fix: move those values to CachedContent from GenerateContent request.",
  check(request, report) {
    const cached = configField(request, "cachedContent");
    if (cached === undefined) return;
    if (typeof cached.value !== "string" || cached.value.trim() === "") {
      report({ message: "cachedContent must be the name of a cached content, e.g. cachedContents/abc123", path: cached.path });
      return;
    }
    for (const field of CACHED_FIELDS) {
      const set = configField(request, field);
      // An empty tools list sets nothing.
      if (set !== undefined && !(Array.isArray(set.value) && set.value.length === 0) && asRecord(request) !== undefined) {
        report({ message: `${field} is set in a request that uses the cached content ${cached.value}: it must be part of the cached content instead`, path: set.path });
      }
    }
  },
};

export const geminiCacheRules: ReadonlyArray<Rule<unknown>> = [cachedContentAlone];
