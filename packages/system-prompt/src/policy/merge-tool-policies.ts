// Merges a system-level and an agent-level tool policy into the one the prompt states. Lists are
// united (system entries first, then the agent's, duplicates removed); a category or tool denied at
// either level is removed from both allow lists, so a deny always wins over an allow.
import type { ToolPolicyConfig } from "../input/tool-policy-config.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function union(...lists: Array<ReadonlyArray<string> | undefined>): string[] {
  return [...new Set(lists.flatMap((list) => list ?? []))];
}

/** The merged policy; empty lists are left out, and an empty policy is `{}`. */
export function mergeToolPolicies(systemLevel: ToolPolicyConfig | undefined, agentLevel: ToolPolicyConfig | undefined): ToolPolicyConfig {
  const deniedCategories = union(systemLevel?.deniedCategories, agentLevel?.deniedCategories);
  const deniedTools = union(systemLevel?.deniedTools, agentLevel?.deniedTools);
  const merged: Mutable<ToolPolicyConfig> = {};
  const set = (key: keyof ToolPolicyConfig, list: string[]) => {
    if (list.length > 0) merged[key] = list;
  };
  set("allowedCategories", union(systemLevel?.allowedCategories, agentLevel?.allowedCategories).filter((category) => !deniedCategories.includes(category)));
  set("deniedCategories", deniedCategories);
  set("allowedTools", union(systemLevel?.allowedTools, agentLevel?.allowedTools).filter((tool) => !deniedTools.includes(tool)));
  set("deniedTools", deniedTools);
  set("customRules", union(systemLevel?.customRules, agentLevel?.customRules));
  return merged;
}
