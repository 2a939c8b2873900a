import { expect, test } from "vitest";
import { windowChanged } from "./library-turn-benchmark.js";

const system = { role: "system", content: "Be brief." };
const user = (content: string) => ({ role: "user", content });
const call = { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: "{}" } }] };
const pending = { role: "tool", tool_call_id: "c1", content: "[no result yet]" };
const result = { role: "tool", tool_call_id: "c1", content: "the file" };
const answer = { role: "assistant", content: "Done." };

test.for([
  { name: "appended only", previous: [system, user("a"), user("b")], next: [system, user("a"), user("b"), user("c")], changed: false },
  { name: "the newest turn's synthesized result replaced by the real one", previous: [system, user("a"), call, pending], next: [system, user("a"), call, result, user("b")], changed: false },
  { name: "a synthesized final user message replaced by the next turn's", previous: [system, user("a"), call, result, user("Continue.")], next: [system, user("a"), call, result, user("b")], changed: false },
  { name: "equal messages as new objects", previous: [system, user("a"), user("b")], next: [{ ...system }, user("a"), user("b"), user("c")], changed: false },
  { name: "the cut moved", previous: [system, user("a"), user("b")], next: [system, user("b"), user("c")], changed: true },
  { name: "the system prompt's note changed", previous: [system, user("a"), user("b")], next: [{ role: "system", content: "Be brief. 3 results cleared." }, user("a"), user("b")], changed: true },
  { name: "an older result cleared", previous: [system, user("a"), call, result, user("b"), answer, user("Continue.")], next: [system, user("a"), call, { ...result, content: "[cleared]" }, user("b"), answer, user("c")], changed: true },
])("$name: changed $changed", ({ previous, next, changed }) => {
  expect(windowChanged({ messages: previous }, { messages: next })).toBe(changed);
});
