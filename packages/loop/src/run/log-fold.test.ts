import type { StoredMessage } from "@ctxpipe/store";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { deepFreeze } from "../loop/deep-freeze.js";
import { LogFold } from "./log-fold.js";

const message = (id: string, content: string | object = id): StoredMessage => ({ id, role: "user", content }) as StoredMessage;
const frozenLog = (count: number, prefix = "m") => Array.from({ length: count }, (_, index) => deepFreeze(message(`${prefix}${index}`)));

/** A fold of the ids, recording which messages it read. */
function idFold() {
  const read: string[] = [];
  const fold = new LogFold<string>("", (state, next) => {
    read.push(next.id);
    return `${state}${next.id};`;
  });
  return { fold, read };
}

describe("LogFold", () => {
  test.for<{ name: string; logs: () => StoredMessage[][]; read: string[] }>([
    {
      name: "a log that grew is read from where the last fold stopped",
      logs: () => {
        const log = frozenLog(4);
        return [log.slice(0, 2), log.slice(0, 3), log, log.slice()];
      },
      read: ["m0", "m1", "m2", "m3"],
    },
    {
      name: "a log that shrank or changed is read again from the start",
      logs: () => {
        const log = frozenLog(3);
        return [log, log.slice(0, 2), [log[0]!, deepFreeze(message("x1"))]];
      },
      read: ["m0", "m1", "m2", "m0", "m1", "m0", "x1"],
    },
    {
      name: "messages that are not deep-frozen are read every time",
      logs: () => {
        const log = [message("m0"), deepFreeze(message("m1")), Object.freeze(message("m2", { text: "nested" }))];
        return [log, log];
      },
      read: ["m0", "m1", "m2", "m0", "m1", "m2"],
    },
    {
      name: "another conversation (another first message) keeps its own place",
      logs: () => {
        const a = frozenLog(2, "a");
        const b = frozenLog(2, "b");
        return [a, b, [...a, deepFreeze(message("a2"))], [...b, deepFreeze(message("b2"))]];
      },
      read: ["a0", "a1", "b0", "b1", "a2", "b2"],
    },
  ])("$name", ({ logs, read: expected }) => {
    const { fold, read } = idFold();
    for (const log of logs()) expect(fold.of(log)).toBe(log.map((entry) => `${entry.id};`).join(""));
    expect(read).toStrictEqual(expected);
  });

  test("property: any sequence of logs folds as a fresh fold does", () => {
    const pool = frozenLog(6);
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat({ max: 5 }), { maxLength: 8 }), { maxLength: 8 }), (picks) => {
        const { fold } = idFold();
        for (const indexes of picks) {
          const log = indexes.map((index) => pool[index]!);
          expect(fold.of(log)).toBe(idFold().fold.of(log));
        }
      }),
    );
  });
});
