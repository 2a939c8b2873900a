// Builds the OpenAI request for the stored conversation with the redaction plugin registered: the
// whole integration an app needs is the `plugins` entry.
import { type BuildResult, createPipeline, type OpenAIChatRequest } from "@ctxpipe/core";
import { RedactSecretsPlugin } from "ctxpipe-plugin-redact-secrets";
import { agentConversation } from "./agent-conversation.js";

export function buildRedactedContext(): Promise<BuildResult<OpenAIChatRequest>> {
  const pipeline = createPipeline({
    plugins: [
      new RedactSecretsPlugin({
        // Personal data the model does not need to answer.
        emails: true,
        // The deploy service's own token format, which no built-in pattern knows.
        patterns: [{ name: "deploy-token", pattern: /dpl_[a-z0-9]{20,}/ }],
      }),
    ],
  });
  return pipeline.build(agentConversation(), {
    model: "gpt-4.1",
    system: "You are a deployment assistant. You can read files and make HTTP requests.",
  });
}
