// The secrets the plugin recognises out of the box. Each pattern is tuned to a documented token
// format so that ordinary prose (or a word like "sk-learn") is not mistaken for a credential.

/** A named pattern: every match is replaced by `[REDACTED:<name>]`. */
export interface SecretPattern {
  readonly name: string;
  readonly pattern: RegExp;
}

// A token must start at a word boundary, or right after a JSON escape such as `\n`: tool outputs are
// often JSON-encoded text, where a key on its own line follows the letter of an escape.
function startingAtBoundary(token: RegExp): RegExp {
  return new RegExp(String.raw`(?<=^|[^A-Za-z0-9_]|\\[nrt])` + token.source, "g");
}

/** Always applied, in this order: a more specific pattern runs before a broader one claims its match. */
export const BUILT_IN_SECRET_PATTERNS: ReadonlyArray<SecretPattern> = Object.freeze([
  {
    name: "private-key",
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----/g,
  },
  // sk-ant-api03-…, sk-ant-admin01-…
  { name: "anthropic-api-key", pattern: startingAtBoundary(/sk-ant-[A-Za-z0-9_-]{20,}/) },
  // sk-…, sk-proj-…, sk-svcacct-…: random base62, so a real key has a digit and an upper-case letter.
  {
    name: "openai-api-key",
    pattern: startingAtBoundary(/sk-(?!ant-)(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Z])[A-Za-z0-9_-]{20,}/),
  },
  // Long-term (AKIA) and temporary (ASIA) access key ids.
  { name: "aws-access-key-id", pattern: startingAtBoundary(/(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/) },
  // Classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained (github_pat_) tokens.
  { name: "github-token", pattern: startingAtBoundary(/(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/) },
  { name: "jwt", pattern: startingAtBoundary(/eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/) },
  // Only the token is replaced, so "Authorization: Bearer [REDACTED:bearer-token]" still reads as a header.
  // The digit and the length keep "the bearer of bad news" out.
  { name: "bearer-token", pattern: /(?<=\b[Bb]earer[ \t]+)(?=[A-Za-z0-9\-._~+/]*[0-9])[A-Za-z0-9\-._~+/]{16,}=*/g },
]);

/** Applied when the `emails` option is on: an address is personal data rather than a credential. */
export const EMAIL_PATTERN: SecretPattern = Object.freeze({
  name: "email",
  pattern: startingAtBoundary(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/),
});
