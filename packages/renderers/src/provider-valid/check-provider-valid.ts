// The promise behind every renderer in this package, as one function the property tests and the
// benchmark share: for an input ctxpipe accepts, each provider's request breaks none of that
// provider's rules, no readable user or assistant text disappears without a report entry, and the
// newest user message is sent in a user turn.
import { checkRules, ContextValidationError, createPipeline, isBlank, type ItemInput, openAIChatRules, type Pipeline, type RuleViolation } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { AnthropicMessagesRendererPlugin } from "../anthropic-messages/anthropic-messages-renderer-plugin.js";
import { anthropicMessagesRules } from "../anthropic-messages/anthropic-messages-rules.js";
import { GeminiRendererPlugin } from "../gemini/gemini-renderer-plugin.js";
import { geminiRules } from "../gemini/gemini-rules.js";
import { OpenAIResponsesRendererPlugin } from "../openai-responses/openai-responses-renderer-plugin.js";
import { openAIResponsesRules } from "../openai-responses/openai-responses-rules.js";

export const PROVIDERS = [
  { renderer: "openai", model: "gpt-4o", rules: openAIChatRules, turns: (request: unknown) => (request as { messages: Array<{ role: string }> }).messages },
  { renderer: "openai-responses", model: "gpt-5", rules: openAIResponsesRules, turns: (request: unknown) => (request as { input: Array<{ role?: string }> }).input },
  { renderer: "anthropic", model: "claude-sonnet-4-6", rules: anthropicMessagesRules, turns: (request: unknown) => (request as { messages: Array<{ role: string }> }).messages },
  { renderer: "gemini", model: "gemini-3-pro", rules: geminiRules, turns: (request: unknown) => (request as { contents: Array<{ role: string }> }).contents },
] as const;

export type ProviderName = (typeof PROVIDERS)[number]["renderer"];

/** One pipeline for all checks: pipelines are reusable, and reuse is what applications do. */
export function providerPipeline(): Pipeline {
  return createPipeline({ plugins: [new OpenAIResponsesRendererPlugin(), new AnthropicMessagesRendererPlugin(), new GeminiRendererPlugin()] });
}

export interface ProviderCheck {
  readonly provider: ProviderName;
  /** Violations of the provider's rules, error and strict levels alike. */
  readonly violations: ReadonlyArray<RuleViolation>;
  /** What broke the promise, in words; empty when it held. */
  readonly problems: ReadonlyArray<string>;
}

/** Whether an input has anything a provider could be sent: otherwise refusing it (NOT_EMPTY) is right. */
function refusalIsRight(error: unknown): boolean {
  return error instanceof ContextValidationError && error.issues.every((issue) => issue.rule === "NOT_EMPTY");
}

/**
 * Builds the items for each provider and checks the promise. `system` is the composed system prompt;
 * undefined composes none, so stored system messages are the prompt.
 */
export async function checkProviderValid(pipeline: Pipeline, items: ReadonlyArray<ItemInput>, system: string | undefined = "You are a careful engineer."): Promise<ProviderCheck[]> {
  const checks: ProviderCheck[] = [];
  for (const provider of PROVIDERS) {
    const problems: string[] = [];
    let result: Awaited<ReturnType<Pipeline["build"]>>;
    try {
      result = await pipeline.build(items, { renderer: provider.renderer as "openai", model: provider.model, tokenizer: wordTokenizer, ...(system === undefined ? {} : { system }) });
    } catch (error) {
      if (!refusalIsRight(error)) problems.push(`the build failed: ${error instanceof Error ? error.message : String(error)}`);
      checks.push({ provider: provider.renderer, violations: [], problems });
      continue;
    }
    const request: unknown = result.request;
    const violations = checkRules(provider.rules, request, { model: provider.model });
    for (const violation of violations) problems.push(`${violation.rule} at ${violation.path ?? "?"}: ${violation.message}`);

    // Nothing lost silently. Entries line up with the input records, so a copy or an earlier version of
    // an edited record (same id as the version sent) is judged by its own entry.
    const sent = JSON.stringify(request);
    items.forEach((item, index) => {
      if ((item.type !== "user" && item.type !== "assistant") || isBlank(item.text ?? "")) return;
      const entry = result.report.entries[index];
      if (entry === undefined || entry.id !== item.id) {
        problems.push(`item ${index} ("${item.id}") is missing from the report`);
        return;
      }
      if (["dropped", "summarized", "merged"].includes(entry.decision)) {
        if (entry.reason.length === 0) problems.push(`item ${index} ("${item.id}") is ${entry.decision} without a reason`);
        return;
      }
      // A truncated text is sent in part: its head (before the cut) must be in the request.
      if (entry.decision === "truncated") {
        if (entry.reason.length === 0) problems.push(`item ${index} ("${item.id}") is truncated without a reason`);
        const head = (item.text ?? "").slice(0, Math.min(entry.cut?.from ?? 0, 200)).toWellFormed();
        if (!sent.includes(JSON.stringify(head).slice(1, -1))) problems.push(`item ${index} ("${item.id}") is truncated, but the head of its text is not in the request`);
        return;
      }
      const text = (item.text ?? "").toWellFormed();
      if (!sent.includes(JSON.stringify(text).slice(1, -1))) problems.push(`item ${index} ("${item.id}") is ${entry.decision}, but its text is not in the request`);
    });

    // The newest user message that can be sent is sent, in a user turn.
    // A record stored again under the same id is an edit: only an id's last version counts (an edit
    // that left the message blank leaves nothing to send).
    const newest = items.findLast(
      (item, index) =>
        item.type === "user" &&
        item.metadata?.includeInContext !== false &&
        (!isBlank(item.text) || (item.attachments?.length ?? 0) > 0) &&
        !items.some((later, laterIndex) => laterIndex > index && later.id === item.id),
    );
    if (newest !== undefined) {
      const entry = result.report.entries.find((candidate) => candidate.id === newest.id && candidate.messageIndex !== undefined);
      const turn = entry?.messageIndex === undefined ? undefined : provider.turns(request)[entry.messageIndex];
      if (turn?.role !== "user") problems.push(`the newest user message "${newest.id}" is not sent in a user turn`);
    }
    checks.push({ provider: provider.renderer, violations, problems });
  }
  return checks;
}
