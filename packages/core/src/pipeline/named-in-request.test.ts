import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { deepFreeze } from "../model/deep-freeze.js";
import { contentHandle } from "../text/content-handle.js";
import { namedInRequest } from "./named-in-request.js";

const HANDLES = ["one", "two", "three"].map((text) => contentHandle(text));

/** Strings that name a handle, name it only once JSON escapes them (a control character before "tx_"), or do not. */
const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(...HANDLES).map((handle) => `see ${handle} here`),
  fc.constantFrom(...HANDLES).map((handle) => `\u001c${handle.slice(1)}`),
  fc.constantFrom(...HANDLES).map((handle) => handle.slice(0, 10)),
);
const value = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small" }, text, fc.integer(), fc.boolean(), fc.constant(null), tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(text, tie("value"), { maxKeys: 3 }),
})).value;

/** A request as renderers make them: top-level fields, arrays of messages, some messages deep-frozen (kept from build to build). */
const request = fc
  .record({ fields: fc.dictionary(text, value, { maxKeys: 3 }), messages: fc.array(fc.tuple(fc.dictionary(text, value, { maxKeys: 3 }), fc.boolean()), { maxLength: 5 }) })
  .map(({ fields, messages }) => ({ ...fields, messages: messages.map(([message, frozen]) => (frozen ? deepFreeze(message) : message)) }));

describe("namedInRequest", () => {
  test("says what searching the whole request's JSON says, asked again over requests that share frozen messages", () => {
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 3 }), (requests) => {
        // Later requests send the earlier ones' messages again, as a renderer's next build does.
        let sent: unknown[] = [];
        for (const next of requests) {
          sent = [...sent, ...next.messages];
          const whole = { ...next, messages: sent };
          const named = namedInRequest(whole);
          for (const handle of HANDLES) expect(named(handle)).toBe(JSON.stringify(whole).includes(handle));
        }
      }),
      { numRuns: 500 },
    );
  });

  test.for<[string, unknown, boolean]>([
    ["a value JSON leaves out takes its key along", { [`${HANDLES[0]}`]: undefined, messages: [] }, false],
    // JSON.stringify hands toJSON the element's index: serialized alone, it would get "".
    ["an element whose toJSON reads its key", { messages: [{ toJSON: (key: string) => (key === "0" ? HANDLES[0] : "none") }] }, true],
    ["a request that is an array", [{ content: HANDLES[0] }], true],
    ["an escape JSON writes makes the handle", { messages: [{ content: `\u001c${HANDLES[0]!.slice(1)}` }] }, true],
  ])("%s", ([, whole, expected]) => {
    expect([namedInRequest(whole)(HANDLES[0]!), JSON.stringify(whole).includes(HANDLES[0]!)]).toEqual([expected, expected]);
  });
});
