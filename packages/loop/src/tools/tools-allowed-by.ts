// Chat mode: the tools offered to the model are filtered by the merged system- and agent-level policy
// before they are rendered and counted, so a denied tool costs no tokens and cannot be called.
import type { ToolPolicyConfig } from "@ctxpipe/system-prompt";
import type { LoopTool } from "./loop-tool.js";

/**
 * Whether the policy lets the model use the tool. A deny (by name or category) always wins. With
 * allow lists, a tool passes when its name is allowed or its category is; a policy with no allow
 * list allows everything not denied. An empty allow list (the merge left nothing) allows nothing
 * through that list.
 */
export function isToolAllowed(tool: Pick<LoopTool, "name" | "category">, policy: ToolPolicyConfig): boolean {
  if (policy.deniedTools?.includes(tool.name)) return false;
  if (tool.category !== undefined && policy.deniedCategories?.includes(tool.category)) return false;
  const { allowedTools, allowedCategories } = policy;
  if (allowedTools === undefined && allowedCategories === undefined) return true;
  if (allowedTools?.includes(tool.name)) return true;
  return tool.category !== undefined && allowedCategories?.includes(tool.category) === true;
}

/** The tools the policy allows, in their given order. */
export function toolsAllowedBy<T extends Pick<LoopTool, "name" | "category">>(tools: ReadonlyArray<T>, policy: ToolPolicyConfig): T[] {
  return tools.filter((tool) => isToolAllowed(tool, policy));
}
