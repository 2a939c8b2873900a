// The hotfix run's tools. Each one that finishes a step moves the example's state machine, which RunLoop
// reads on the next turn.
import type { LoopTool } from "@ctxpipe/loop";
import type { HotfixMachine } from "./hotfix-machine.js";

export function hotfixTools(machine: HotfixMachine): LoopTool[] {
  return [
    {
      name: "read_ticket",
      description: "The ticket's text.",
      run: () => {
        machine.advance("triage", "patch", { variables: { failingPath: "src/cart/total.ts" } });
        return "BUG-481: the cart total is NaN when a coupon has no amount (src/cart/total.ts).";
      },
    },
    {
      name: "write_patch",
      description: "Writes a patch file.",
      parameters: { type: "object", properties: { file: { type: "string" }, diff: { type: "string" } }, required: ["file", "diff"] },
      run: ({ file }) => {
        machine.advance("patch", "review", { artifact: String(file), variables: { attempts: 1 } });
        return `wrote ${String(file)}`;
      },
    },
    {
      name: "deploy",
      description: "Deploys the approved patch.",
      run: () => {
        machine.advance("deploy", "done", { variables: { deployedAs: "v2.4.3" } });
        return "deployed v2.4.3";
      },
    },
  ];
}
