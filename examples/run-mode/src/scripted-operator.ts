// The scripted model's answers: it reads the run directive in the system prompt (which step the run
// is on) and the last message, as a model would, so its path through the workflow follows the log.
import type { OpenAIChatMessage, OpenAIChatRequest } from "@ctxpipe/core";
import type { ScriptedAnswer } from "@ctxpipe/loop";

function text(message: OpenAIChatMessage | undefined): string {
  if (message === undefined || message.content === null) return "";
  return typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** `failNext` makes the next call fail as an overloaded endpoint would (retryable: the loop retries). */
export function scriptedOperator(control: { failNext: boolean }) {
  return (request: OpenAIChatRequest): ScriptedAnswer => {
    if (control.failNext) {
      control.failNext = false;
      return { error: { message: "upstream model overloaded", code: "LLM_HTTP_ERROR", status: 503 } };
    }
    const system = text(request.messages[0]);
    const step = /\*\*Current Step:\*\* .* \((\w+)\)/.exec(system)?.[1];
    const last = request.messages.at(-1);
    const lastTool = last?.role === "tool" ? text(last) : undefined;
    if (step === undefined) {
      // The post-completion profile: no step, so the final answer comes from the conversation.
      const cause = request.messages.map(text).find((content) => content.startsWith("Root cause:"));
      // A follow-up question after completion is answered from the conversation.
      if (last?.role === "user" && text(last).includes("?")) return { text: cause === undefined ? "The review found no root cause." : `From the review: ${cause}` };
      return { text: cause === undefined ? "The review is complete, with no root cause found." : `The review is complete. ${cause}` };
    }
    // A complete_step result: the directive already shows the next step, so start on it.
    const fresh = lastTool === undefined || lastTool.startsWith("{");
    switch (step) {
      case "collect":
        return fresh ? { toolCalls: [{ name: "read_log", arguments: { around: "03:00" } }] } : { toolCalls: [{ name: "complete_step", arguments: {} }] };
      case "analyze":
        // A result saying the call was interrupted (the killed process's) means the call must be made again.
        if (fresh || lastTool.includes("interrupted")) return { toolCalls: [{ name: "query_metrics", arguments: { metric: "db_pool_connections" } }] };
        return { toolCalls: [{ name: "complete_step", arguments: { transition: "root cause found" } }] };
      default:
        return {
          text: "Root cause: the v2.4.1 deploy leaked database connections until the pool (1000) was exhausted at 03:00. Action: alert at 80% pool use.",
          toolCalls: [{ name: "complete_step", arguments: {} }],
        };
    }
  };
}
