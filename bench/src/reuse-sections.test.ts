import { createTokenizer } from "@ctxpipe/tokenizers";
import { expect, test } from "vitest";
import { ReuseSections } from "./reuse-sections.js";

test("sections 9–12 print every row of issue 24 beside its defeated reuse and trimMessages, PostgreSQL and fresh processes included", async () => {
  const lines: string[] = [];
  const sections = new ReuseSections({ log: (line) => lines.push(line), tokenizer: createTokenizer("gpt-4o"), turns: 3, freshProcessRuns: 1, sizes: { small: 30, large: 60 } });
  try {
    await sections.printLibrary();
    await sections.printLoops();
    await sections.printReloads();
    await sections.printFreshProcess();
  } finally {
    await sections.close();
  }
  const output = lines.join("\n");
  expect(output).not.toMatch(/failed|skipped|DIFFERENT/);
  const rowsStartingWith = (start: string) => lines.filter((line) => line.trimStart().startsWith(start)).length;
  // Each size's sections print row g first; a and b per size and budget (half the history, gpt-4o's); c per size and budget, d for the large size; e and f per store.
  expect({
    g: rowsStartingWith("g. trimMessages"),
    a: rowsStartingWith("a. createPipeline()"),
    b: rowsStartingWith("b. CompressionPlugin"),
    c: rowsStartingWith("c. ChatLoop.send, JsonlStore"),
    d: rowsStartingWith("d. ChatLoop.send, PostgresStore"),
    e: rowsStartingWith("e. "),
    f: rowsStartingWith("f. fresh process"),
    before: rowsStartingWith("before:"),
  }).toEqual({ g: 6, a: 4, b: 4, c: 4, d: 2, e: 2, f: 4, before: 8 + 12 + 2 + 4 });
  // A timed row has its median, p90 and worst, its runs and its ratio to trimMessages.
  const timed = /\d ms +\d[\d.,]* ms +\d[\d.,]* ms +×\d+ +[\d.,]+×/;
  for (const line of lines.filter((each) => /^ +(?:[a-g]\. |before:)/.test(each))) expect(line).toMatch(timed);
  // The library with compression, once more in a child process with a larger young generation.
  const semiSpace = lines.filter((line) => line.includes("the same, node --max-semi-space-size=64 (a child process)"));
  expect(semiSpace).toHaveLength(1);
  expect(semiSpace[0]).toMatch(timed);
  // JsonlStore's reader hands a grown log's earlier messages back as the same objects; a new store object reads them anew.
  expect(lines.find((line) => line.includes("e. JsonlStore"))).toMatch(/— +100% of/);
  // PostgresStore's reload reads only the rows after the last it kept and hands back the same objects;
  // a new store object reads every row.
  const reload = (start: string) => {
    const at = lines.findIndex((line) => line.includes(start));
    return [lines[at], lines[at + 1]].map((line) => /([\d,]+) +(\d+)% of ([\d,]+)$/.exec(line ?? "")?.slice(1).map((figure) => Number(figure.replaceAll(",", ""))));
  };
  const [kept, fresh] = reload("e. PostgresStore");
  expect({ keptFewRows: kept![0]! <= 3, keptSame: kept![1], freshReadsAll: fresh![0]! >= fresh![2]! - 1, freshSame: fresh![1] }).toEqual({ keptFewRows: true, keptSame: 100, freshReadsAll: true, freshSame: 0 });
  // Under the fresh process over JsonlStore, what reading and parsing its log alone costs a process: every line read.
  const floor = lines.filter((line) => line.includes("floor: the log file read and parsed line by line"));
  expect(floor).toHaveLength(1);
  expect(floor[0]).toMatch(timed);
  expect(Number(/ (\d[\d,]*) lines$/.exec(floor[0]!)?.[1]?.replaceAll(",", ""))).toBeGreaterThan(60);
  // A fresh process reads the counts the previous process persisted; with the count methods hidden it finds none.
  const records = lines.filter((line) => line.trimStart().startsWith("f. ") || line.includes("token counts hidden")).map((line) => Number(/ (\d[\d,]*)$/.exec(line)?.[1]?.replaceAll(",", "")));
  expect(records.map((count) => count > 0)).toEqual([true, false, true, false, true, false, true, false]);
}, 600_000);
