import { describe, expect, it } from "vitest";
import type { InputShape } from "../args/cli-options.js";
import { CliInputError, type CliInputProblem } from "../cli/cli-input-error.js";
import { detectInputShape } from "./detect-input-shape.js";

const locations = (records: ReadonlyArray<unknown>) => records.map((_, index) => `line ${index + 1}`);
const detect = (records: ReadonlyArray<unknown>, requested: InputShape = "auto") => detectInputShape(records, locations(records), "c.jsonl", requested);

function problemsOf(run: () => unknown): ReadonlyArray<CliInputProblem> {
  try {
    run();
  } catch (error) {
    if (error instanceof CliInputError) return error.problems;
    throw error;
  }
  throw new Error("expected a CliInputError");
}

const chat = [
  { id: "u1", role: "user", content: "Weather?" },
  { id: "a1", role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: "{}" } }] },
  { id: "t1", role: "tool", tool_call_id: "c1", content: "18C" },
];
const responses = [
  { role: "user", content: "Weather?" },
  { type: "function_call", id: "fc_1", call_id: "c1", name: "weather", arguments: "{}" },
  { type: "function_call_output", call_id: "c1", output: "18C" },
];

describe("detectInputShape", () => {
  it.each<{ name: string; records: unknown[]; shape: "stored" | "openai-responses" }>([
    { name: "stored messages with calls", records: chat, shape: "stored" },
    { name: "plain role/content messages (both shapes read them alike)", records: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }], shape: "stored" },
    { name: 'plain messages with type "message" and string content', records: [{ type: "message", role: "user", content: "hi" }], shape: "stored" },
    { name: "Responses items with calls", records: responses, shape: "openai-responses" },
    { name: "a message with input_text parts", records: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }], shape: "openai-responses" },
    { name: "an output message", records: [{ role: "user", content: "hi" }, { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "hello", annotations: [] }] }], shape: "openai-responses" },
    { name: "reasoning", records: [{ role: "user", content: "hi" }, { type: "reasoning", id: "rs_1", summary: [] }], shape: "openai-responses" },
    { name: "an item of another Responses type", records: [{ type: "compaction", id: "cmp_1", encrypted_content: "x" }, { role: "user", content: "hi" }], shape: "openai-responses" },
    { name: "no records", records: [], shape: "stored" },
    { name: "records that are not objects (left to the importer)", records: ["hello", null], shape: "stored" },
  ])("auto: $name → $shape", ({ records, shape }) => {
    expect(detect(records)).toBe(shape);
  });

  it("auto: refuses a conversation that mixes the two shapes, naming a record of each", () => {
    expect(problemsOf(() => detect([...chat, responses[1]]))).toEqual([
      {
        source: "c.jsonl",
        location: "line 4",
        id: "fc_1",
        field: "type",
        message: 'a Responses API item (type "function_call"), but line 2 is a stored message (a "tool_calls" field): a conversation is read in one shape, stored messages or Responses API items, not both',
      },
    ]);
  });

  it("a shape given by name is taken as it is when nothing contradicts it", () => {
    expect(detect([{ role: "user", content: "hi" }], "openai-responses")).toBe("openai-responses");
    expect(detect([{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }], "stored")).toBe("stored");
  });

  it("--input-shape openai-responses refuses every stored message's field it would not send", () => {
    expect(problemsOf(() => detect(chat, "openai-responses"))).toEqual([
      {
        source: "c.jsonl",
        location: "line 2",
        id: "a1",
        field: "tool_calls",
        message: 'a "tool_calls" field is a stored message\'s, not a Responses API item\'s (--input-shape openai-responses): there a call is a function_call item and its answer a function_call_output item',
      },
      {
        source: "c.jsonl",
        location: "line 3",
        id: "t1",
        field: "role",
        message: 'role "tool" is a stored message\'s, not a Responses API item\'s (--input-shape openai-responses): there a call is a function_call item and its answer a function_call_output item',
      },
    ]);
  });

  it("--input-shape stored refuses Responses items", () => {
    expect(problemsOf(() => detect(responses, "stored"))).toEqual([
      { source: "c.jsonl", location: "line 2", id: "fc_1", field: "type", message: 'type "function_call" is a Responses API item, not a stored message (--input-shape stored): read the conversation with --input-shape openai-responses' },
      { source: "c.jsonl", location: "line 3", field: "type", message: 'type "function_call_output" is a Responses API item, not a stored message (--input-shape stored): read the conversation with --input-shape openai-responses' },
    ]);
  });
});
