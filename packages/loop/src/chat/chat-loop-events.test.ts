// Every event of one send is numbered 1, 2, 3… in the order it was emitted, text deltas included, so
// that a UI holding one ordered stream sees everything and can resume after any number.
import { describe, expect, it } from "vitest";
import { counterIds, fixedClock, tempStore } from "../__fixtures__/loop-fixtures.js";
import type { LoopEvent } from "../loop/loop-events.js";
import { scriptedModel } from "../model/scripted-model.js";
import { ChatLoop } from "./chat-loop.js";

describe("ChatLoop events", () => {
  it("numbers every event of a call 1..N in emission order, text deltas among them; onText gets the same deltas", async () => {
    const { store } = tempStore();
    const model = scriptedModel([{ text: "Let me look.", toolCalls: [{ name: "now", id: "call_1" }] }, { text: "It is noon." }]);
    const loop = new ChatLoop({ model, store, tools: [{ name: "now", run: () => "12:00" }], newId: counterIds(), now: fixedClock() });
    const events: LoopEvent[] = [];
    const pieces: string[] = [];
    const result = await loop.send({ conversationId: "c1", userInput: "Time?", onEvent: (event) => events.push(event), onText: (delta) => pieces.push(delta) });
    expect(events.map((event) => [event.sequence, event.type, event.type === "text" ? event.delta : undefined])).toEqual([
      [1, "persisted", undefined],
      [2, "built", undefined],
      [3, "text", "Let "],
      [4, "text", "me "],
      [5, "text", "look."],
      [6, "replied", undefined],
      [7, "persisted", undefined],
      [8, "persisted", undefined],
      [9, "tool-ran", undefined],
      [10, "built", undefined],
      [11, "text", "It "],
      [12, "text", "is "],
      [13, "text", "noon."],
      [14, "replied", undefined],
      [15, "persisted", undefined],
    ]);
    expect(pieces).toEqual(["Let ", "me ", "look.", "It ", "is ", "noon."]);
    expect(result.text).toBe("It is noon.");
    // Each send numbers from 1 again.
    const next: number[] = [];
    await new ChatLoop({ model: scriptedModel([{ text: "Bye." }]), store }).send({ conversationId: "c1", userInput: "Bye", onEvent: (event) => next.push(event.sequence) });
    expect(next).toEqual([1, 2, 3, 4, 5]);
  });
});
