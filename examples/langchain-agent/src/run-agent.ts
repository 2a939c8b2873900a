// A LangChain createAgent with ctxpipe's middleware, driven offline by LangChain's fake chat model:
// it asks for the latency tool once, then answers. The middleware fits and repairs what every model
// call sends; the agent's state keeps the history as it was stored.
import { type CtxpipeModelCallBuild, ctxpipeMiddleware } from "@ctxpipe/langchain/agent";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { createAgent, fakeModel, tool } from "langchain";
import { z } from "zod";
import { brokenHistory } from "./broken-history.js";

export const BUDGET = { model: "gpt-4o", maxTokens: 4_000, reserveOutputTokens: 1_000 } as const;

const dbLatency = tool(async ({ window }) => `p99 over ${window}: 95 ms (normal)`, {
  name: "db_latency",
  description: "The database's p99 latency over a time window",
  schema: z.object({ window: z.string() }),
});

export interface AgentRun {
  readonly history: BaseMessage[];
  /** The agent's state after the run. */
  readonly messages: BaseMessage[];
  /** What each model call was sent. */
  readonly calls: BaseMessage[][];
  /** ctxpipe's build for each model call. */
  readonly builds: CtxpipeModelCallBuild[];
}

export async function runAgent(): Promise<AgentRun> {
  const model = fakeModel()
    .respond(new AIMessage({ id: "ask", content: "", tool_calls: [{ name: "db_latency", args: { window: "1h" }, id: "call_now" }] }))
    .respond(new AIMessage({ id: "answer", content: "The database p99 is 95 ms over the last hour: normal." }));
  const builds: CtxpipeModelCallBuild[] = [];
  const agent = createAgent({
    model,
    tools: [dbLatency],
    systemPrompt: "You are an on-call assistant. Be brief.",
    middleware: [ctxpipeMiddleware({ ...BUDGET, onBuild: (build) => builds.push(build) })],
  });
  const history = brokenHistory();
  const result = await agent.invoke({ messages: history });
  return { history, messages: result.messages, calls: model.calls.map((call) => call.messages), builds };
}

/** What the run did, in lines for a terminal. */
export function describeRun(run: AgentRun): string[] {
  const lines: string[] = [];
  run.builds.forEach((build, index) => {
    lines.push(`Model call ${index + 1}: ${build.tokenCount} tokens sent (${build.tokenCountExact ? "exact" : "estimated"}, budget ${build.maxTokens - build.reserveOutputTokens} for ${build.model})`);
    for (const entry of build.report.entries) {
      if (entry.decision !== "kept") lines.push(`  ${entry.id}: ${entry.decision}: ${entry.reason}`);
    }
    for (const entry of build.report.synthesized) lines.push(`  ${entry.id}: synthesized: ${entry.reason}`);
  });
  lines.push(`The agent's state: ${run.messages.length} messages (the ${run.history.length} stored ones unchanged), last: "${run.messages.at(-1)?.text}"`);
  return lines;
}
