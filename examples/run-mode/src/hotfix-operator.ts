// The scripted model of the engine variant: it reads the run directive the engine's state produced
// (current step, variables, artifacts), as a model would.
import type { OpenAIChatRequest } from "@ctxpipe/core";
import type { ScriptedAnswer } from "@ctxpipe/loop";

export function hotfixOperator() {
  return (request: OpenAIChatRequest): ScriptedAnswer => {
    const first = request.messages[0];
    const system = first?.role === "system" ? first.content : "";
    const step = /\*\*Current Step:\*\* .* \((\w+)\)/.exec(system)?.[1];
    const patch = /### Artifacts\n- (.+)/.exec(system)?.[1];
    switch (step) {
      case "triage":
        return { toolCalls: [{ name: "read_ticket", arguments: {} }] };
      case "patch":
        return { toolCalls: [{ name: "write_patch", arguments: { file: "patches/bug-481-coupon-amount.diff", diff: "- total += coupon.amount\n+ total += coupon.amount ?? 0" } }] };
      case "review":
        return { text: `The patch is ready for review: ${patch ?? "(no patch)"}. Reply "approve" to deploy it.` };
      case "deploy":
        return { toolCalls: [{ name: "deploy", arguments: {} }] };
      default: {
        // The post-completion profile: a follow-up is answered, and the completed run is left as it is.
        const last = request.messages.at(-1);
        if (last?.role === "user" && typeof last.content === "string" && last.content.includes("?")) {
          return { text: "The hotfix run is completed, so I leave it as it is: bumping the version is new work; start a new run for it." };
        }
        return { text: `BUG-481 is fixed: ${patch ?? "the patch"} is deployed as v2.4.3.` };
      }
    }
  };
}
