import { contentHandle, type OffloadedText } from "@ctxpipe/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { notStoredYet, rememberStored } from "./conversation-log.js";

const BODIES = ["one", "two", "three", "four", "five", "six"];
const textOf = (body: string): OffloadedText => ({ handle: contentHandle(body), itemId: `item-${body}`, text: body, chars: body.length });

describe("the texts a send hands to the store", () => {
  test("are those of report.offloaded whose handles the store does not have yet, however the list changed since the last send", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            // Each send's list: texts as the last list's objects, as copies, or new, in any order.
            bodies: fc.uniqueArray(fc.constantFrom(...BODIES), { maxLength: 6 }),
            copies: fc.boolean(),
            stored: fc.boolean(),
          }),
          { maxLength: 10 },
        ),
        (sends) => {
          const storedHandles = new Set<string>();
          const known = new Map<string, OffloadedText>();
          for (const send of sends) {
            const offloaded = send.bodies.map((body) => {
              const text = send.copies ? undefined : known.get(body);
              return text ?? textOf(body);
            });
            for (const text of offloaded) known.set(text.text, text);
            const fresh = notStoredYet(offloaded, storedHandles);
            expect(fresh).toStrictEqual(offloaded.filter((text) => !storedHandles.has(text.handle)));
            // A send whose store call failed remembers nothing: the next one hands the texts over again.
            if (!send.stored) continue;
            for (const text of fresh) storedHandles.add(text.handle);
            rememberStored(offloaded, storedHandles);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
