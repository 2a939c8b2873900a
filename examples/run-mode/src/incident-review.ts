// The example's workflow, in the shape run mode's workflow runs take: steps with instructions,
// labelled edges, one default.
import type { WorkflowDefinition } from "@ctxpipe/loop";

export const incidentReview: WorkflowDefinition = {
  name: "incident-review",
  packageName: "ops-playbooks",
  steps: [
    { id: "collect", name: "Collect evidence", instruction: "Read the service log around the outage." },
    { id: "analyze", name: "Analyze", instruction: "Query the metrics and find the root cause." },
    { id: "report", name: "Write the report", instruction: "Write a short postmortem with the root cause and one action item." },
  ],
  edges: [
    { from: "collect", to: "analyze", label: "collected", isDefault: true },
    { from: "analyze", to: "report", label: "root cause found", isDefault: true },
    { from: "analyze", to: "collect", label: "need more evidence" },
  ],
};
