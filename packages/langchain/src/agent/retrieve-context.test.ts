// retrieve_context in LangChain's real createAgent, with its fake chat model: a giant tool result that
// compression cuts is read back in bounded parts, following each reply's "next part" call, and the
// parts are exactly the range asked for; bad arguments come back as tool errors saying what to fix.
import { DEFAULT_RETRIEVE_MAX_CHARS, PluginOptionsError, RETRIEVE_CONTEXT_PARAMETERS } from "@ctxpipe/core";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { createAgent, fakeModel } from "langchain";
import { describe, expect, test } from "vitest";
import { type CtxpipeModelCallBuild, ctxpipeMiddleware } from "./ctxpipe-middleware.js";

const BUDGET = { model: "gpt-4o", maxTokens: 12_000, reserveOutputTokens: 1_000 } as const;
const HANDLE_PATTERN = /call retrieve_context with (\{"handle":"ctx_[0-9a-f]+","from":\d+,"to":\d+\})/;

// 600 distinct numbered lines: any range read back is checkable against the original.
const LOG = Array.from({ length: 600 }, (_, line) => `${String(line).padStart(4, "0")} GET /api/items/${line * 7} ${line % 13 === 0 ? "500 upstream timeout" : "200 OK"}`).join("\n");

function history(): BaseMessage[] {
  return [
    new HumanMessage({ id: "h0", content: "Read the server log." }),
    new AIMessage({ id: "a0", content: "", tool_calls: [{ id: "call_log", name: "read_log", args: {} }] }),
    new ToolMessage({ id: "t0", tool_call_id: "call_log", content: LOG }),
    new AIMessage({ id: "a1", content: "I read it." }),
    new HumanMessage({ id: "h1", content: "Which requests failed in the part you did not see?" }),
  ];
}

/** A fake model that decides each call from the messages it receives, as a real one reads a marker. */
function readingModel(decide: (messages: BaseMessage[], call: number) => { args: Record<string, unknown> } | { text: string }, calls: number) {
  let model = fakeModel();
  for (let call = 0; call < calls; call++) {
    model = model.respond((messages) => {
      const next = decide(messages, call);
      return "text" in next ? new AIMessage({ id: `final-${call}`, content: next.text }) : new AIMessage({ id: `ask-${call}`, content: "", tool_calls: [{ id: `call_${call}`, name: "retrieve_context", args: next.args }] });
    });
  }
  return model;
}

function lastToolMessage(messages: BaseMessage[]): ToolMessage {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message)).at(-1)!;
}

describe("the middleware's retrieve_context", () => {
  test("a cut giant result is read back in parts no longer than the cap, exactly, and every request fits the budget", async () => {
    const builds: CtxpipeModelCallBuild[] = [];
    let asked: { handle: string; from: number; to: number } | undefined;
    const parts: string[] = [];
    const model = readingModel((messages, call) => {
      if (call === 0) {
        const marker = HANDLE_PATTERN.exec(messages.map((message) => message.text).join("\n"));
        expect(marker, "the first request holds a cut marker").not.toBeNull();
        const cut = JSON.parse(marker![1]!) as { handle: string; from: number; to: number };
        asked = { ...cut, to: cut.from + 6_000 };
        return { args: asked };
      }
      const reply = lastToolMessage(messages).text;
      const newline = reply.indexOf("\n");
      parts.push(reply.slice(newline + 1));
      const next = /call retrieve_context with (\{.*?\}) for the next part/.exec(reply.slice(0, newline));
      return next === null ? { text: "Every 13th request failed." } : { args: JSON.parse(next[1]!) as Record<string, unknown> };
    }, 10);
    const middleware = ctxpipeMiddleware({ ...BUDGET, onBuild: (build) => void builds.push(build) });
    const agent = createAgent({ model, tools: [], middleware: [middleware] });

    const result = await agent.invoke({ messages: history() });

    expect(result.messages.at(-1)!.text).toBe("Every 13th request failed.");
    expect(builds[0]!.report.offloaded.map(({ text }) => text)).toEqual([LOG]);
    const cap = Math.floor(builds[0]!.report.budget!.available / 4);
    expect(parts.join("")).toBe(LOG.slice(asked!.from, asked!.to));
    expect(parts.length).toBe(Math.ceil(6_000 / cap));
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(cap);
    for (const build of builds) {
      expect(build.tokenCountExact).toBe(true);
      expect(build.tokenCount).toBeLessThanOrEqual(BUDGET.maxTokens - BUDGET.reserveOutputTokens);
    }
  });

  test("a reply is never longer than retrieveMaxChars: a call without a range gets the start and how to read on", async () => {
    let reply = "";
    const model = readingModel((messages, call) => {
      if (call === 0) return { args: { handle: JSON.parse(HANDLE_PATTERN.exec(messages.map((message) => message.text).join("\n"))![1]!).handle } };
      reply = lastToolMessage(messages).text;
      return { text: "done" };
    }, 2);
    const agent = createAgent({ model, tools: [], middleware: [ctxpipeMiddleware({ ...BUDGET, retrieveMaxChars: 500 })] });
    await agent.invoke({ messages: history() });
    const handle = /ctx_[0-9a-f]+/.exec(reply)![0];
    expect(reply).toBe(
      `[retrieve_context ${handle}: characters 0 to 500 of ${LOG.length.toLocaleString("en-US")} (500 characters). The text goes on for ${(LOG.length - 500).toLocaleString("en-US")} more characters: call retrieve_context with {"handle":"${handle}","from":500} to read on.]\n${LOG.slice(0, 500)}`,
    );
  });

  test("bad arguments and an unknown handle are tool errors that say what to fix", async () => {
    let handle = "";
    const attempts: Array<() => Record<string, unknown>> = [
      () => ({ from: 3 }),
      () => ({ handle, from: -1 }),
      () => ({ handle, to: "ten" }),
      () => ({ handle: "ctx_ffffffffffffffff" }),
      () => ({ handle, from: 50, to: 10 }),
    ];
    const replies: ToolMessage[] = [];
    const model = readingModel((messages, call) => {
      if (call === 0) handle = JSON.parse(HANDLE_PATTERN.exec(messages.map((message) => message.text).join("\n"))![1]!).handle as string;
      else replies.push(lastToolMessage(messages));
      return call < attempts.length ? { args: attempts[call]!() } : { text: "done" };
    }, attempts.length + 1);
    const agent = createAgent({ model, tools: [], middleware: [ctxpipeMiddleware(BUDGET)] });
    await agent.invoke({ messages: history() });
    expect(replies.map((reply) => ({ status: reply.status, text: reply.text }))).toEqual([
      { status: "error", text: 'Error: "handle" must be the handle a marker names (a string such as "ctx_0123456789abcdef")' },
      { status: "error", text: 'Error: "from" must be a whole number of at least 0, got -1' },
      { status: "error", text: 'Error: "to" must be a whole number of at least 0, got "ten"' },
      { status: "error", text: 'Error: no text is kept under the handle "ctx_ffffffffffffffff" in this conversation; use a handle exactly as a marker or placeholder names it' },
      { status: "error", text: 'Error: "to" (10) is before "from" (50)' },
    ]);
  });

  test("its definition is the loops' own, and bad options are PluginOptionsErrors naming them", async () => {
    const middleware = ctxpipeMiddleware(BUDGET);
    const [definition] = middleware.tools ?? [];
    expect(definition?.name).toBe("retrieve_context");
    expect((definition as unknown as { schema: unknown }).schema).toStrictEqual(RETRIEVE_CONTEXT_PARAMETERS);
    expect(DEFAULT_RETRIEVE_MAX_CHARS).toBe(20_000);
    expect(() => ctxpipeMiddleware({ retrieveMaxChars: 0 })).toThrow(PluginOptionsError);
    expect(() => ctxpipeMiddleware({ retrieveMaxChars: 0 })).toThrow(/at retrieveMaxChars/);
    expect(() => ctxpipeMiddleware({ maxOffloadedChars: -1 })).toThrow(/at maxOffloadedChars/);
  });
});
