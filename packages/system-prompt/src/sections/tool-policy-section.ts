// `## Tool Policy`: one line per non-empty list, then the custom rules, then the tool-policy
// template. Empty when the policy lists nothing, so the section is left out. An allow list that is
// present but empty (the merge left nothing allowed) reads `(none)`: dropping the line would turn
// "only these" into "anything".
import type { ToolPolicyConfig } from "../input/tool-policy-config.js";
import type { Templates } from "../templates/default-templates.js";

export function toolPolicySection(policy: ToolPolicyConfig, templates: Templates): string {
  const lines = ["## Tool Policy"];
  const list = (label: string, entries: ReadonlyArray<string> | undefined, emptyMeans: "nothing" | "none") => {
    if (entries === undefined) return;
    if (entries.length > 0) lines.push(`${label}: ${entries.join(", ")}`);
    else if (emptyMeans === "none") lines.push(`${label}: (none)`);
  };
  list("Allowed categories", policy.allowedCategories, "none");
  list("Denied categories", policy.deniedCategories, "nothing");
  list("Allowed tools", policy.allowedTools, "none");
  list("Denied tools", policy.deniedTools, "nothing");
  if (policy.customRules !== undefined && policy.customRules.length > 0) {
    lines.push("", "### Custom Rules", ...policy.customRules.map((rule) => `- ${rule}`));
  }
  if (lines.length === 1) return "";
  if (templates["tool-policy"].length > 0) lines.push("", templates["tool-policy"]);
  return lines.join("\n");
}
