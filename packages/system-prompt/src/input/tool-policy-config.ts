// Which tools the model may call, as the prompt states it. A system-level and an agent-level policy
// merge (mergeToolPolicies), a deny at either level winning over an allow at either level.

export interface ToolPolicyConfig {
  /** For example ["fs", "project", "ui"]. */
  readonly allowedCategories?: ReadonlyArray<string>;
  readonly deniedCategories?: ReadonlyArray<string>;
  readonly allowedTools?: ReadonlyArray<string>;
  readonly deniedTools?: ReadonlyArray<string>;
  /** Free-text rules, one bullet each. */
  readonly customRules?: ReadonlyArray<string>;
}
