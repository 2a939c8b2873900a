// A deterministic stand-in for a model, answering from the request it receives as a careful model
// would: read the log; in the cut result's tail, find the offset the FATAL line gives; ask
// retrieve_context for the range around it; answer with the error line it finds there.
import type { OpenAIChatRequest } from "@ctxpipe/core";
import { type ScriptedAnswer, scriptedModel } from "@ctxpipe/loop";

const textOf = (content: unknown) => (typeof content === "string" ? content : "");

function lastToolText(request: OpenAIChatRequest): string {
  const tool = request.messages.filter((message) => message.role === "tool").at(-1);
  return tool === undefined ? "" : textOf(tool.content);
}

export function scriptedAgent() {
  return scriptedModel<"openai">(
    [
      { toolCalls: [{ name: "read_log" }] },
      (request): ScriptedAnswer => {
        const result = lastToolText(request);
        const handle = /call retrieve_context with \{"handle":"(ctx_[0-9a-f]+)"/.exec(result)?.[1];
        const offset = Number(/first error at offset (\d+)/.exec(result)?.[1]);
        if (handle === undefined || !Number.isInteger(offset)) return { text: "The log came back whole; nothing was cut." };
        return { toolCalls: [{ name: "retrieve_context", arguments: { handle, from: Math.max(0, offset - 300), to: offset + 300 } }] };
      },
      (request): ScriptedAnswer => {
        const line = lastToolText(request)
          .split("\n")
          .find((text) => text.includes(" ERROR "));
        return { text: line === undefined ? "I could not find the error." : `The service stopped after this error:\n${line}` };
      },
    ],
    { model: "gpt-4o-mini" },
  );
}
