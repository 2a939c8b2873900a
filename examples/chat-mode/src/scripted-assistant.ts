// The scripted model's answers: a small deterministic assistant that reads the request it is sent, so
// what it says shows what the pipeline gave it (the history, the summary, the tool results).
import type { OpenAIChatMessage, OpenAIChatRequest } from "@ctxpipe/core";
import type { ScriptedAnswer } from "@ctxpipe/loop";

function text(message: OpenAIChatMessage | undefined): string {
  if (message === undefined || message.content === null) return "";
  return typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** Answers from the request alone; `failNext` makes the next call fail as an overloaded endpoint would. */
export function scriptedAssistant(control: { failNext: boolean }) {
  return (request: OpenAIChatRequest): ScriptedAnswer => {
    if (control.failNext) {
      control.failNext = false;
      return { error: { message: "upstream model overloaded", code: "LLM_HTTP_ERROR", status: 503 } };
    }
    const last = request.messages.at(-1);
    if (last?.role === "tool") {
      const report = text(last).split("\n");
      return { text: `${report[0]}: ${report[13]?.replace(/^\S+ /, "at 12:00 in ")}.` };
    }
    const everything = request.messages.map(text).join("\n");
    const question = text(request.messages.filter((message) => message.role === "user").at(-1)).replace(/^USER_INPUT\n/, "");
    const town = /weather in (\w+)/i.exec(question)?.[1];
    if (town !== undefined) return { toolCalls: [{ name: "get_weather", arguments: { town } }] };
    if (/^continue$/i.test(question.trim())) {
      // A failed call is not sent (it stays in the log), so the question it left unanswered is the user
      // message right before "continue", with no answer after it.
      const before = request.messages.at(-2);
      const pending = before?.role === "user" ? /weather in (\w+)/i.exec(text(before))?.[1] : undefined;
      if (pending !== undefined) return { toolCalls: [{ name: "get_weather", arguments: { town: pending } }] };
      return { text: "Continuing." };
    }
    const name = /my name is (\w+)/i.exec(question)?.[1];
    if (name !== undefined) return { text: `Nice to meet you, ${name}.` };
    if (/what is my name/i.test(question)) {
      const known = [...everything.matchAll(/my name is (\w+)/gi)].at(-1)?.[1];
      return { text: known === undefined ? "You have not told me your name." : `Your name is ${known}.` };
    }
    return { text: "Noted." };
  };
}
