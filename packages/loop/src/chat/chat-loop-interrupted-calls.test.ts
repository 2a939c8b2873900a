// A process that dies between persisting an answer's tool calls and persisting their results: the next
// send settles those calls before it persists anything new, by the loop's interruptedToolCalls option.
// The crash is a store that throws on the k-th append; the file keeps what was appended before it.
import type { OpenAIChatRequest } from "@ctxpipe/core";
import type { StoredMessage } from "@ctxpipe/store";
import { describe, expect, it } from "vitest";
import { counterIds, crashingStore, fixedClock, SimulatedCrash, tempStore } from "../__fixtures__/loop-fixtures.js";
import type { LoopEvent } from "../loop/loop-events.js";
import { interruptedCallsOf, interruptedCallText } from "../loop/settle-interrupted-calls.js";
import { scriptedModel } from "../model/scripted-model.js";
import type { LoopTool, ToolRunContext } from "../tools/loop-tool.js";
import { ChatLoop } from "./chat-loop.js";

const CALLS = [
  { name: "charge", id: "call_1", arguments: { cents: 500 } },
  { name: "email", id: "call_2", arguments: { to: "ana@example.com" } },
];

/** A payment tool that uses the call id as its idempotency key, as a payment API would. */
function paymentSystem() {
  const charged = new Map<string, number>();
  const seen: Array<Pick<ToolRunContext, "callId" | "interrupted">> = [];
  const tools: LoopTool[] = [
    {
      name: "charge",
      run: (args, context) => {
        seen.push({ callId: context.callId, interrupted: context.interrupted });
        if (charged.has(context.callId)) return `already charged ${charged.get(context.callId)} cents`;
        charged.set(context.callId, args.cents as number);
        return `charged ${String(args.cents)} cents`;
      },
    },
    {
      name: "email",
      run: (args, context) => {
        seen.push({ callId: context.callId, interrupted: context.interrupted });
        return `sent to ${String(args.to)}`;
      },
    },
  ];
  return { charged, seen, tools };
}

/** The first process: persists the user message and the answer's calls, then dies after `appends` appends. */
async function crashAfter(appends: number, tools: LoopTool[]) {
  const { store } = tempStore();
  const first = new ChatLoop({ model: scriptedModel([{ toolCalls: CALLS }]), store: crashingStore(store, appends), tools, newId: counterIds("a"), now: fixedClock() });
  await expect(first.send({ conversationId: "c1", userInput: "Pay and tell Ana." })).rejects.toBeInstanceOf(SimulatedCrash);
  return store;
}

const shape = (messages: ReadonlyArray<StoredMessage>) =>
  messages.map(({ role, tool_call_id, content, is_error, interrupted, rerun }) => ({ role, tool_call_id, content, is_error, interrupted, rerun }));

describe("ChatLoop: tool calls interrupted by a crash", () => {
  it('"answer" (the default): each call left without a result is answered as interrupted, not run again, before the new input', async () => {
    const payments = paymentSystem();
    const store = await crashAfter(2, payments.tools);
    // The charge ran, but its result was never saved; the email never ran.
    expect(payments.seen).toEqual([{ callId: "call_1", interrupted: false }]);
    expect(shape((await store.load("c1")).messages).map((message) => message.role)).toEqual(["user", "assistant"]);

    const model = scriptedModel([{ text: "The payment may have gone through; let me check." }]);
    const events: LoopEvent[] = [];
    const loop = new ChatLoop({ model, store, tools: payments.tools, newId: counterIds("b"), now: fixedClock() });
    const result = await loop.send({ conversationId: "c1", userInput: "Did it work?", onEvent: (event) => events.push(event) });

    expect(payments.seen).toHaveLength(1);
    const { messages } = await store.load("c1");
    expect(shape(messages.slice(2))).toEqual([
      { role: "tool", tool_call_id: "call_1", content: interruptedCallText("charge"), is_error: true, interrupted: true, rerun: undefined },
      { role: "tool", tool_call_id: "call_2", content: interruptedCallText("email"), is_error: true, interrupted: true, rerun: undefined },
      { role: "user", tool_call_id: undefined, content: "USER_INPUT\nDid it work?", is_error: undefined, interrupted: undefined, rerun: undefined },
      { role: "assistant", tool_call_id: undefined, content: "The payment may have gone through; let me check.", is_error: undefined, interrupted: undefined, rerun: undefined },
    ]);
    expect(messages[2]).toMatchObject({ toolName: "charge", partType: "tool_result", mode: "agent" });
    expect(interruptedCallText("charge")).toBe(
      "This call to charge was interrupted before its result was saved, and it was not run again: it may or may not have taken effect. Check before calling it again.",
    );
    expect(result.persisted.map((message) => message.id)).toEqual(messages.slice(2).map((message) => message.id));
    expect(events.slice(0, 5).map((event) => [event.sequence, event.type, event.type === "call-interrupted" ? `${event.call.id} ${event.settledBy}` : undefined])).toEqual([
      [1, "call-interrupted", "call_1 answer"],
      [2, "persisted", undefined],
      [3, "call-interrupted", "call_2 answer"],
      [4, "persisted", undefined],
      [5, "persisted", undefined],
    ]);
    // The model reads that the calls were interrupted, right after them (the renderer marks error results).
    const request = model.calls[0]!.request as OpenAIChatRequest;
    const calledAt = request.messages.findIndex((message) => message.role === "assistant");
    expect(request.messages.slice(calledAt + 1, calledAt + 3)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: `Error: ${interruptedCallText("charge")}` },
      { role: "tool", tool_call_id: "call_2", content: `Error: ${interruptedCallText("email")}` },
    ]);
  });

  it('"rerun": each call is run again with interrupted: true; a tool that keeps its call ids does not act twice', async () => {
    const payments = paymentSystem();
    const store = await crashAfter(2, payments.tools);
    const loop = new ChatLoop({ model: scriptedModel([{ text: "Paid and sent." }]), store, tools: payments.tools, interruptedToolCalls: "rerun", newId: counterIds("b"), now: fixedClock() });
    await loop.send({ conversationId: "c1", userInput: "Did it work?" });
    expect(payments.seen).toEqual([
      { callId: "call_1", interrupted: false },
      { callId: "call_1", interrupted: true },
      { callId: "call_2", interrupted: true },
    ]);
    expect([...payments.charged]).toEqual([["call_1", 500]]);
    const { messages } = await store.load("c1");
    expect(shape(messages.slice(2, 4))).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "already charged 500 cents", is_error: undefined, interrupted: true, rerun: true },
      { role: "tool", tool_call_id: "call_2", content: "sent to ana@example.com", is_error: undefined, interrupted: true, rerun: true },
    ]);
    expect(messages.slice(4).map((message) => message.role)).toEqual(["user", "assistant"]);
  });

  it.for([{ policy: "answer" as const }, { policy: "rerun" as const }])("a crash between two results settles only the call left ($policy), also when the call sends no input", async ({ policy }) => {
    const payments = paymentSystem();
    const store = await crashAfter(3, payments.tools);
    expect((await store.load("c1")).messages.map((message) => message.tool_call_id)).toEqual([undefined, undefined, "call_1"]);
    const loop = new ChatLoop({ model: scriptedModel([{ text: "Done." }]), store, tools: payments.tools, interruptedToolCalls: policy });
    const result = await loop.send({ conversationId: "c1" });
    const { messages } = await store.load("c1");
    expect(messages.map((message) => message.tool_call_id ?? message.role)).toEqual(["user", "assistant", "call_1", "call_2", "assistant"]);
    expect(messages[3]).toMatchObject(policy === "answer" ? { is_error: true, interrupted: true, content: interruptedCallText("email") } : { interrupted: true, rerun: true, content: "sent to ana@example.com" });
    expect(payments.seen.map((seen) => seen.callId)).toEqual(policy === "answer" ? ["call_1", "call_2"] : ["call_1", "call_2", "call_2"]);
    expect(result.persisted.map((message) => message.role)).toEqual(["tool", "assistant"]);
  });

  it("a rerun aborted before it starts is answered instead, so no call is left without a result", async () => {
    const payments = paymentSystem();
    const store = await crashAfter(2, payments.tools);
    const controller = new AbortController();
    controller.abort();
    const loop = new ChatLoop({ model: scriptedModel([{ text: "never" }]), store, tools: payments.tools, interruptedToolCalls: "rerun" });
    const result = await loop.send({ conversationId: "c1", userInput: "Hello?", signal: controller.signal });
    expect(result.status).toBe("aborted");
    expect(payments.seen).toHaveLength(1);
    expect((await store.load("c1")).messages.map((message) => [message.tool_call_id ?? message.role, message.interrupted, message.rerun])).toEqual([
      ["user", undefined, undefined],
      ["assistant", undefined, undefined],
      ["call_1", true, undefined],
      ["call_2", true, undefined],
      ["user", undefined, undefined],
    ]);
  });

  it("rejects an interruptedToolCalls that is neither answer nor rerun, naming the field", () => {
    expect(() => new ChatLoop({ model: scriptedModel([]), interruptedToolCalls: "skip" as never })).toThrow(
      expect.objectContaining({ name: "PluginOptionsError", message: 'Invalid options for ChatLoop:\ninterruptedToolCalls: must be "answer" or "rerun", got "skip"' }),
    );
  });
});

describe("interruptedCallsOf", () => {
  const call = (id: string, name = "t") => ({ id, type: "function", function: { name, arguments: "{}" } });
  const assistant = (ids: string[]): StoredMessage => ({ id: `a-${ids.join("")}`, role: "assistant", content: null, tool_calls: ids.map((id) => call(id)) });
  const result = (id: string): StoredMessage => ({ id: `r-${id}`, role: "tool", content: "ok", tool_call_id: id });
  const user: StoredMessage = { id: "u", role: "user", content: "hi" };

  it.for([
    { name: "an empty log", messages: [], expected: [] },
    { name: "every call answered", messages: [user, assistant(["x", "y"]), result("x"), result("y")], expected: [] },
    { name: "no result yet", messages: [user, assistant(["x", "y"])], expected: ["x", "y"] },
    { name: "one of two answered", messages: [user, assistant(["x", "y"]), result("y")], expected: ["x"] },
    { name: "the newest answer has no calls", messages: [assistant(["x"]), { id: "a2", role: "assistant", content: "done" } as StoredMessage], expected: [] },
    { name: "a user message after the calls (results can no longer follow them)", messages: [assistant(["x"]), user], expected: [] },
    { name: "an older answer's calls", messages: [assistant(["x"]), result("x"), user, assistant(["y"])], expected: ["y"] },
    { name: "a call id given twice", messages: [assistant(["x", "x"])], expected: ["x"] },
  ])("$name", ({ messages, expected }) => {
    expect(interruptedCallsOf(messages as StoredMessage[]).map((found) => found.id)).toEqual(expected);
  });

  it("reads the flat call shape and object arguments too", () => {
    expect(interruptedCallsOf([{ id: "a", role: "assistant", tool_calls: [{ id: "x", name: "t", arguments: { a: 1 } }, { name: "no id" }] }])).toEqual([{ id: "x", name: "t", arguments: '{"a":1}' }]);
  });
});
