// The interner hands back the previous call's object for an equal message at the same position, and
// never for a message that differs, however deep the difference.
import fc from "fast-check";
import { expect, test } from "vitest";
import { MessageInterner } from "./message-interner.js";
import type { ProviderPrompt } from "./provider-prompt.js";

const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  leaf: fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant(null), fc.uint8Array({ maxLength: 4 }), fc.webUrl().map((url) => new URL(url))),
  node: fc.oneof({ depthSize: "small" }, tie("leaf"), fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(fc.constantFrom("a", "b", "text", "input"), tie("node"), { maxKeys: 3 })),
})).node;

const message = fc.record({ role: fc.constantFrom("user", "assistant", "tool"), content: fc.array(fc.record({ type: fc.constantFrom("text", "tool-call"), payload: value }), { maxLength: 3 }) });
const prompt = fc.array(message, { minLength: 1, maxLength: 6 }) as unknown as fc.Arbitrary<ProviderPrompt>;

/** The same prompt as new objects all the way down, as `ai` makes it for each call. */
function deepCopy(input: unknown): unknown {
  if (input instanceof URL) return new URL(input.href);
  if (input instanceof Uint8Array) return input.slice();
  if (Array.isArray(input)) return input.map(deepCopy);
  if (typeof input === "object" && input !== null) return Object.fromEntries(Object.entries(input).map(([key, entry]) => [key, deepCopy(entry)]));
  return input;
}

const copy = (input: ProviderPrompt) => deepCopy(input) as ProviderPrompt;

test("an equal prompt, as new objects, gives back the first call's objects", () => {
  fc.assert(
    fc.property(prompt, (first) => {
      const interner = new MessageInterner();
      const before = interner.intern(first);
      const after = interner.intern(copy(first));
      after.forEach((message, index) => {
        expect(message).toBe(before[index]);
      });
    }),
  );
});

/** The value with one leaf changed, the one `path` leads to (each number picks a child). */
function alter(input: unknown, path: ReadonlyArray<number>): unknown {
  if (typeof input === "string") return `${input}x`;
  if (typeof input === "number") return input + 1;
  if (typeof input === "boolean") return !input;
  if (input === null) return 0;
  if (input instanceof URL) return new URL(`${input.href}x`);
  if (input instanceof Uint8Array) return Uint8Array.of(...input, 1);
  const [step = 0, ...rest] = path;
  if (Array.isArray(input)) {
    if (input.length === 0) return [0];
    const at = step % input.length;
    return input.map((entry, index) => (index === at ? alter(entry, rest) : entry));
  }
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length === 0) return { added: 0 };
  const at = step % entries.length;
  return Object.fromEntries(entries.map(([key, entry], index) => [key, index === at ? alter(entry, rest) : entry]));
}

test("a message that differs anywhere, however deep, is not replaced by the earlier one", () => {
  fc.assert(
    fc.property(prompt, fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (first, path) => {
      const interner = new MessageInterner();
      interner.intern(first);
      const changed = copy(first);
      const index = path[0]! % changed.length;
      const message = changed[index] as unknown as { content: unknown };
      const altered = { ...message, content: alter(message.content, path.slice(1)) } as unknown as ProviderPrompt[number];
      changed[index] = altered;
      const after = interner.intern(changed);
      expect(after[index]).toBe(altered);
      after.forEach((entry, position) => {
        if (position !== index) expect(entry).not.toBe(changed[position]);
      });
    }),
  );
});
