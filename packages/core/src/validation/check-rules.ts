// Runs a rule table over a subject (an item list or a rendered request) and collects what breaks.
import type { Rule, RuleEnv, RuleViolation } from "../spec/rule.js";

export function checkRules<Subject>(rules: ReadonlyArray<Rule<Subject>>, subject: Subject, env: RuleEnv = {}): RuleViolation[] {
  const violations: RuleViolation[] = [];
  for (const rule of rules) {
    if (rule.appliesTo !== undefined && !rule.appliesTo(env)) continue;
    rule.check(
      subject,
      (violation) => {
        violations.push({
          rule: rule.id,
          level: rule.level,
          ...(rule.providerError === undefined ? {} : { providerError: rule.providerError }),
          ...violation,
        });
      },
      env,
    );
  }
  return violations;
}
