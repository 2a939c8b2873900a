// The streaming and interrupted-call API as a user writes it, through the package's entry.
import { expectTypeOf, test } from "vitest";
import { type ChatSendOptions, type LoopEvent, LoopEventBuffer, type LoopOptions, type LoopTool, type ToolRunContext } from "../index.js";

test("every event carries its sequence, and narrowing by type keeps it", () => {
  expectTypeOf<LoopEvent["sequence"]>().toEqualTypeOf<number>();
  expectTypeOf<Extract<LoopEvent, { type: "text" }>>().toEqualTypeOf<{ readonly type: "text"; readonly delta: string } & { readonly sequence: number }>();
  const listener = (event: LoopEvent) => {
    if (event.type === "call-interrupted") expectTypeOf(event.settledBy).toEqualTypeOf<"answer" | "rerun">();
  };
  expectTypeOf(listener).toExtend<NonNullable<ChatSendOptions["onEvent"]>>();
});

test("a buffer's onEvent is a call's listener, and track keeps the call's result type", () => {
  const buffer = new LoopEventBuffer({ maxEvents: 100, heartbeatMs: false });
  expectTypeOf(buffer.onEvent).toExtend<NonNullable<ChatSendOptions["onEvent"]>>();
  expectTypeOf(buffer.track(Promise.resolve({ status: "completed" as const, text: "", turns: 0, persisted: [], usage: { inputTokens: 0, outputTokens: 0 }, runId: "r" }))).resolves.toHaveProperty("runId");
  // @ts-expect-error heartbeatMs is a number of milliseconds or false
  new LoopEventBuffer({ heartbeatMs: true });
});

test("interruptedToolCalls is answer or rerun; tools see the call id and whether it is a rerun", () => {
  expectTypeOf<LoopOptions["interruptedToolCalls"]>().toEqualTypeOf<"answer" | "rerun" | undefined>();
  expectTypeOf<Pick<ToolRunContext, "callId" | "interrupted">>().toEqualTypeOf<{ readonly callId: string; readonly interrupted: boolean }>();
  const tool: LoopTool = { name: "charge", run: (_, context) => (context.interrupted ? `checked ${context.callId}` : "charged") };
  expectTypeOf(tool.run).parameter(1).toEqualTypeOf<ToolRunContext>();
});
