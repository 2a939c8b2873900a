// Merges a system-level and an agent-level tool policy into the one the prompt states. The system
// level is a ceiling: when both levels give an allow list, only entries in both stay (in system
// order); when one does, its list applies. Deny lists are united (system entries first, duplicates
// removed), and anything denied at either level leaves the allow lists, so a deny always wins.
import type { ToolPolicyConfig } from "../input/tool-policy-config.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function union(...lists: Array<ReadonlyArray<string> | undefined>): string[] {
  return [...new Set(lists.flatMap((list) => list ?? []))];
}

/** The allow list both levels agree on, or undefined when neither level restricts anything. */
function allowed(systemLevel: ReadonlyArray<string> | undefined, agentLevel: ReadonlyArray<string> | undefined, denied: ReadonlyArray<string>): string[] | undefined {
  const system = systemLevel !== undefined && systemLevel.length > 0 ? systemLevel : undefined;
  const agent = agentLevel !== undefined && agentLevel.length > 0 ? agentLevel : undefined;
  if (system === undefined && agent === undefined) return undefined;
  const ceiling = system !== undefined && agent !== undefined ? system.filter((entry) => agent.includes(entry)) : (system ?? agent ?? []);
  return union(ceiling).filter((entry) => !denied.includes(entry));
}

/**
 * The merged policy. Empty deny and rule lists are left out, and a policy restricting nothing is
 * `{}`; an allow list is kept even when empty, since a level asked for "only these" and none are
 * left: the prompt then says so instead of allowing anything.
 */
export function mergeToolPolicies(systemLevel: ToolPolicyConfig | undefined, agentLevel: ToolPolicyConfig | undefined): ToolPolicyConfig {
  const deniedCategories = union(systemLevel?.deniedCategories, agentLevel?.deniedCategories);
  const deniedTools = union(systemLevel?.deniedTools, agentLevel?.deniedTools);
  const merged: Mutable<ToolPolicyConfig> = {};
  const allowedCategories = allowed(systemLevel?.allowedCategories, agentLevel?.allowedCategories, deniedCategories);
  if (allowedCategories !== undefined) merged.allowedCategories = allowedCategories;
  if (deniedCategories.length > 0) merged.deniedCategories = deniedCategories;
  const allowedTools = allowed(systemLevel?.allowedTools, agentLevel?.allowedTools, deniedTools);
  if (allowedTools !== undefined) merged.allowedTools = allowedTools;
  if (deniedTools.length > 0) merged.deniedTools = deniedTools;
  const customRules = union(systemLevel?.customRules, agentLevel?.customRules);
  if (customRules.length > 0) merged.customRules = customRules;
  return merged;
}
