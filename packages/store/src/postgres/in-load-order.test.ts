import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { inLoadOrder } from "./in-load-order.js";

const row = fc.record({ kind: fc.constantFrom(0, 1), seq: fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map(String) });

describe("inLoadOrder", () => {
  test("any rows come out by kind, then by the number their seq spells", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 60 }), (rows) => {
        const expected = rows.slice().sort((a, b) => a.kind - b.kind || (BigInt(a.seq) < BigInt(b.seq) ? -1 : BigInt(a.seq) > BigInt(b.seq) ? 1 : 0));
        const given = rows.slice();
        expect(inLoadOrder(rows)).toStrictEqual(expected);
        expect(rows).toStrictEqual(given);
      }),
    );
  });

  test("rows already in order are handed back as they are, not copied", () => {
    const rows = [
      { kind: 0, seq: "9" },
      { kind: 0, seq: "10" },
      { kind: 1, seq: "2" },
    ];
    expect(inLoadOrder(rows)).toBe(rows);
  });
});
