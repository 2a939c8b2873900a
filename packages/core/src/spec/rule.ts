// A validation rule: one requirement a provider (or ctxpipe itself) places on a message sequence.
// Rule tables are plain data, so the same rules run inside the pipeline and on any request a user
// checks by hand with checkRules().

/**
 * "error": the provider rejects a request that breaks the rule (HTTP 400).
 * "strict": the first-party API accepts it today, but older models, sibling platforms or
 * OpenAI-compatible servers reject it. ctxpipe aims at zero violations at both levels.
 */
export type RuleLevel = "error" | "strict";

/** What a rule knows about the request besides the request itself. */
export interface RuleEnv {
  /** The model the request is for, when known; some rules apply to some models only. */
  readonly model?: string | undefined;
}

/** One violation, as a rule's check reports it. */
export interface RuleViolationInput {
  readonly message: string;
  /** Where in the request, e.g. "messages[3].tool_calls[0].id". */
  readonly path?: string;
  /** Index of the rendered message concerned, so the pipeline can name the items inside it. */
  readonly messageIndex?: number;
  /** The item concerned, for rules over the item list. */
  readonly itemId?: string;
  /** Position of that item in the list checked. */
  readonly position?: number;
}

export interface Rule<Subject> {
  /** Stable id, e.g. "OAI-004" (see reference/providers.md) or "TOOL_CALL_WITHOUT_RESULT". */
  readonly id: string;
  readonly level: RuleLevel;
  /** What the rule requires, in one sentence. */
  readonly requires: string;
  /** The provider's own error text for a request that breaks the rule, when one is known. */
  readonly providerError?: string;
  /** Applies only when this returns true (a model-specific rule, say). Default: always. */
  appliesTo?(env: RuleEnv): boolean;
  check(subject: Subject, report: (violation: RuleViolationInput) => void, env: RuleEnv): void;
}

/** A violation with the rule that found it. */
export interface RuleViolation extends RuleViolationInput {
  readonly rule: string;
  readonly level: RuleLevel;
  readonly providerError?: string;
}
