import { expect, test } from "vitest";
import { StoreInputError } from "./errors/store-input-error.js";
import { validateConversationId } from "./validate-conversation-id.js";
import { jsonValueProblems } from "./validate-json-value.js";
import { validateMessages } from "./validate-messages.js";
import { validateSummaryRecords } from "./validate-summary-records.js";

test("a single message or an array comes back as an array of the same objects", () => {
  const message = { id: "1", role: "user" as const, content: "hi" };
  expect(validateMessages("c", message)[0]).toBe(message);
  expect(validateMessages("c", [message, { ...message, id: "2" }])).toHaveLength(2);
  expect(validateMessages("c", [])).toStrictEqual([]);
});

test("the error names every issue with index, id and field path", () => {
  const error = (() => {
    try {
      validateMessages("conv", [
        { id: "1", role: "user", content: "ok" },
        { id: "2", role: "tool", tool_call_id: 5, duration: "12", content: [{ text: "a", at: new Date(0) }] },
        { role: "assistant", includeInContext: "yes", pinned: 1 },
      ]);
    } catch (caught) {
      return caught;
    }
  })() as StoreInputError;
  expect(error).toBeInstanceOf(StoreInputError);
  expect(error.issues).toStrictEqual([
    { index: 1, id: "2", field: "tool_call_id", message: "must be a string when present" },
    { index: 1, id: "2", field: "duration", message: "must be a number (milliseconds) when present" },
    { index: 1, id: "2", field: "content.0.at", message: "a Date is not a plain JSON value (convert it first, e.g. a Date to its ISO string)" },
    { index: 2, field: "id", message: "must be a non-empty string" },
    { index: 2, field: "includeInContext", message: "must be a boolean when present" },
    { index: 2, field: "pinned", message: "must be a boolean when present" },
  ]);
  expect(error.message).toBe(
    [
      'Cannot append to conversation "conv":',
      '  [1] (id "2") tool_call_id: must be a string when present',
      '  [1] (id "2") duration: must be a number (milliseconds) when present',
      '  [1] (id "2") content.0.at: a Date is not a plain JSON value (convert it first, e.g. a Date to its ISO string)',
      "  [2] id: must be a non-empty string",
      "  [2] includeInContext: must be a boolean when present",
      "  [2] pinned: must be a boolean when present",
    ].join("\n"),
  );
});

test.for([
  ["a shared (acyclic) reference", (() => { const shared = { a: 1 }; return { x: shared, y: [shared, shared] }; })(), []],
  ["null-prototype objects", Object.assign(Object.create(null), { a: 1 }), []],
  ["an undefined property", { a: undefined, b: 1 }, []],
  ["a sparse array", Object.assign(new Array(3), { 0: 1, 2: 3 }), [{ field: "1", message: "a hole in an array is not representable in JSON" }]],
  ["a symbol key", { [Symbol("s")]: 1 }, [{ field: "", message: "symbol-keyed properties are not representable in JSON" }]],
  ["-Infinity deep inside", { a: [{ b: Number.NEGATIVE_INFINITY }] }, [{ field: "a.0.b", message: "-Infinity is not representable in JSON" }]],
] as const)("JSON check: %s", ([, value, problems]) => {
  expect(jsonValueProblems(value)).toStrictEqual(problems);
});

test("nesting deeper than the limit is refused instead of overflowing the stack", () => {
  let deep: unknown = "bottom";
  for (let level = 0; level < 10_000; level++) deep = [deep];
  expect(jsonValueProblems(deep)).toStrictEqual([{ field: Array.from({ length: 256 }, () => "0").join("."), message: "nested deeper than 256 levels" }]);
});

test("summary records need only a non-empty id and JSON values; duplicate ids in a batch are refused", () => {
  expect(validateSummaryRecords("c", { id: "s", anything: { goes: [1] } })).toHaveLength(1);
  expect(() => validateSummaryRecords("c", [{ id: "s" }, { id: "s" }])).toThrow(/duplicates the id of index 0/);
});

test.for([
  ["a", undefined],
  ["x".repeat(200), undefined],
  ["\ud800 lone surrogate", "must be well-formed Unicode (no lone surrogates)"],
  [null, "must be a string, got null"],
] as const)("conversation id %j", ([id, problem]) => {
  if (problem === undefined) expect(validateConversationId(id)).toBe(id);
  else expect(() => validateConversationId(id)).toThrow(expect.objectContaining({ issues: [{ index: -1, field: "conversationId", message: problem }] }));
});
