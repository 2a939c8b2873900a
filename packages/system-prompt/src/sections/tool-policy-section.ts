// `## Tool Policy`: one line per non-empty list, then the custom rules, then the tool-policy
// template. Empty when the policy lists nothing, so the section is left out.
import type { ToolPolicyConfig } from "../input/tool-policy-config.js";
import type { Templates } from "../templates/default-templates.js";

export function toolPolicySection(policy: ToolPolicyConfig, templates: Templates): string {
  const lines = ["## Tool Policy"];
  const list = (label: string, entries: ReadonlyArray<string> | undefined) => {
    if (entries !== undefined && entries.length > 0) lines.push(`${label}: ${entries.join(", ")}`);
  };
  list("Allowed categories", policy.allowedCategories);
  list("Denied categories", policy.deniedCategories);
  list("Allowed tools", policy.allowedTools);
  list("Denied tools", policy.deniedTools);
  if (policy.customRules !== undefined && policy.customRules.length > 0) {
    lines.push("", "### Custom Rules", ...policy.customRules.map((rule) => `- ${rule}`));
  }
  if (lines.length === 1) return "";
  if (templates["tool-policy"].length > 0) lines.push("", templates["tool-policy"]);
  return lines.join("\n");
}
