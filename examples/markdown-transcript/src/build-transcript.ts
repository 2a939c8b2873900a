// Builds the Markdown transcript of the stored session: the renderer is one plugin and one option.
import { type BuildResult, createPipeline } from "@ctxpipe/core";
import { MarkdownRendererPlugin, type MarkdownTranscript } from "ctxpipe-renderer-markdown";
import { agentSession } from "./agent-session.js";

export function buildTranscript(): Promise<BuildResult<MarkdownTranscript>> {
  const pipeline = createPipeline({ plugins: [new MarkdownRendererPlugin({ title: "Nightly build investigation", includeThinking: true })] });
  return pipeline.build(agentSession(), { renderer: "markdown", system: "You are a build engineer." });
}
