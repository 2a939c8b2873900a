// The user's message is loaded and built from while it waits for the disk: the loop starts once a
// load finds it (the store's onWritten) and calls the model only once its append resolved (durable).
// A JsonlStore underneath, with the durable step held back by the test.
import type { AppendOptions, ConversationStore, StoredMessage } from "@ctxpipe/store";
import { describe, expect, it } from "vitest";
import { counterIds, fixedClock, tempStore } from "../__fixtures__/loop-fixtures.js";
import type { LoopEvent } from "../loop/loop-events.js";
import { scriptedModel } from "../model/scripted-model.js";
import { ChatLoop } from "./chat-loop.js";

/** A JsonlStore whose appends of user messages resolve only when the test says (or fail then). */
function heldStore() {
  const { store } = tempStore();
  const steps: string[] = [];
  let release: (failure?: Error) => void = () => undefined;
  const held: ConversationStore = {
    append: async (conversationId: string, messages: StoredMessage | ReadonlyArray<StoredMessage>, options?: AppendOptions) => {
      const list = Array.isArray(messages) ? messages : [messages as StoredMessage];
      if (list[0]?.role !== "user") return store.append(conversationId, messages, options);
      await store.append(conversationId, messages, { onWritten: () => steps.push("written") });
      options?.onWritten?.();
      // Written, not yet durable as far as the loop knows.
      await new Promise<void>((resolve, reject) => {
        release = (failure) => (failure === undefined ? resolve() : reject(failure));
      });
      steps.push("durable");
    },
    appendSummaries: (conversationId, records) => store.appendSummaries(conversationId, records),
    load: async (conversationId) => {
      steps.push("load");
      return store.load(conversationId);
    },
    list: () => store.list(),
    close: () => store.close(),
  };
  return { store: held, steps, release: (failure?: Error) => release(failure) };
}

/** Until the turn loaded the log after the user's message was written. */
async function loadedAfterWritten(steps: string[]): Promise<void> {
  await expect.poll(() => steps.includes("written") && steps.lastIndexOf("load") > steps.indexOf("written"), { timeout: 5000 }).toBe(true);
}

/** Calls the scripted model, noting when. */
function notingModel(steps: string[]) {
  const model = scriptedModel([{ text: "Hello." }]);
  const complete: typeof model.complete = (call) => {
    steps.push("model");
    return model.complete(call);
  };
  return { ...model, complete };
}

describe("ChatLoop: the user's message on its way to the disk", () => {
  it("loads and builds once the message is in the log, and calls the model only once it is durable; the events are as before", async () => {
    const { store, steps, release } = heldStore();
    const loop = new ChatLoop({ model: notingModel(steps), store, newId: counterIds(), now: fixedClock() });
    const events: LoopEvent[] = [];
    const sent = loop.send({ conversationId: "c1", userInput: "Hi", onEvent: (event) => events.push(event) });
    // The build runs while the append is held: wait until the turn's load happened, then let it through.
    await loadedAfterWritten(steps);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(steps).not.toContain("model");
    expect(events).toEqual([]);
    release();
    const result = await sent;
    // The first load looks for calls a stopped process left without results, before the message is written.
    expect(steps).toEqual(["load", "written", "load", "durable", "model"]);
    expect(events.map((event) => event.type)).toEqual(["persisted", "built", "text", "replied", "persisted"]);
    expect(result.persisted.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(result.status).toBe("completed");
  });

  it("an append that fails after the message was written fails the call: no model call, no persisted event", async () => {
    const { store, steps, release } = heldStore();
    const loop = new ChatLoop({ model: notingModel(steps), store, newId: counterIds(), now: fixedClock() });
    const events: LoopEvent[] = [];
    const sent = loop.send({ conversationId: "c1", userInput: "Hi", onEvent: (event) => events.push(event) });
    await loadedAfterWritten(steps);
    release(new Error("fsync failed: EIO"));
    await expect(sent).rejects.toThrow("fsync failed: EIO");
    expect(steps).not.toContain("model");
    expect(events.filter((event) => event.type === "persisted")).toEqual([]);
  });

  it("a call aborted while the message is on its way still waits for it, and reports it persisted", async () => {
    const { store, steps, release } = heldStore();
    const loop = new ChatLoop({ model: notingModel(steps), store, newId: counterIds(), now: fixedClock() });
    const controller = new AbortController();
    const sent = loop.send({ conversationId: "c1", userInput: "Hi", signal: controller.signal });
    await loadedAfterWritten(steps);
    controller.abort();
    setTimeout(() => release(), 20);
    const result = await sent;
    expect(result.status).toBe("aborted");
    expect(result.persisted.map((message) => message.role)).toEqual(["user"]);
    expect(steps).toContain("durable");
    expect(steps).not.toContain("model");
  });
});
