// Reads a `tool_calls` list (or another key, e.g. the message builder's `toolCalls`) in the OpenAI
// nested form `{ id, type: "function", function: { name, arguments } }` or the flat form
// `{ id, name, arguments }` that some stores write.
import type { ToolCallInput } from "../model/tool-call.js";
import type { ExtraFields } from "./extra-fields.js";
import type { RecordFields } from "./record-fields.js";
import type { RecordReader } from "./record-reader.js";

/** Arguments stay the JSON text the model produced; an object is serialised, a missing one means none. */
export function readChatToolCalls(reader: RecordReader, fields: RecordFields, extra: ExtraFields, key = "tool_calls"): ToolCallInput[] {
  const list = fields.array(key);
  if (list === undefined) return [];
  const calls: ToolCallInput[] = [];
  list.forEach((entry: unknown, position) => {
    const call = reader.openObject(entry, fields.at(key).concat(position), extra, "a tool call object");
    if (call === undefined) return;
    // "" is kept: servers that give calls no id store them so, and repair-orphans pairs them by position.
    const id = call.string("id", { required: "a tool call needs its id" });
    let name: string | undefined;
    let args: string;
    if (call.has("function") || call.has("type")) {
      call.oneOf("type", ["function"]);
      const fn = call.object("function", extra, { required: "a tool call needs function: { name, arguments }" });
      name = fn?.string("name", { required: "a tool call needs a function name", nonEmpty: true });
      args = fn?.json("arguments", "{}") ?? "{}";
    } else {
      name = call.string("name", { required: "a tool call needs a name (function.name, or name in the flat form)", nonEmpty: true });
      args = call.json("arguments", "{}");
    }
    if (id !== undefined && name !== undefined) calls.push({ id, name, arguments: args });
  });
  return calls;
}
