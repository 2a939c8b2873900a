// What a reused chain does not do again on a history that only grew. Each test counts the work a
// strategy asks for (token counts, item lookups) or checks objects' identity across builds, so it
// fails if reuse silently stops; the property test next to it proves reuse never changes a result.
import { createPipeline, type DecisionRun, type Item, type ItemInput, type Items, itemText, parseItems, RECORD_DECISION_RUN, STAGE, type StageContext, TurnGroupsCache } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import type { CompressionContext, CompressionStrategy } from "./compression-strategy.js";
import { CompressionPlugin, clearToolResults, DEFAULT_STRATEGIES, slidingWindow, truncateToolResults } from "./index.js";

const words = (count: number, tag: string) => Array.from({ length: count }, (_, index) => `${tag}${index}`).join(" ");

function toolTurn(turn: number, size = 100): ItemInput[] {
  return [
    { id: `u${turn}`, type: "user", text: `question ${turn}` },
    { id: `c${turn}`, type: "assistant", text: "", toolCalls: [{ id: `call_${turn}`, name: "read_file", arguments: `{"n":${turn}}` }] },
    { id: `t${turn}`, type: "tool-result", callId: `call_${turn}`, toolName: "read_file", output: words(size, `w${turn}-`) },
    { id: `a${turn}`, type: "assistant", text: `answer ${turn}` },
  ];
}

const history = (turns: number, size = 100) => Array.from({ length: turns }, (_, index) => toolTurn(index + 1, size)).flat();

/** Calls the strategy as the chain would (turn groups kept from call to call), counting the token counts and lookups it asks for. */
async function run(strategy: CompressionStrategy, items: Items, remaining: number, groups = new TurnGroupsCache(), budget = 100_000) {
  const work = { counted: 0, lookedUp: 0 };
  const decisions: string[] = [];
  const runs: DecisionRun[] = [];
  const note = (kind: string) => (item: Item | string) => decisions.push(`${kind}:${typeof item === "string" ? item : item.id}`);
  const report = {
    // A run (the window's drops) is kept whole, as the chain's recorder keeps it, and noted id by id.
    [RECORD_DECISION_RUN]: (given: DecisionRun) => {
      runs.push(given);
      for (const id of given.ids) note(given.decision)(id);
    },
    clear: note("clear"),
    offload: (item: Item | string) => {
      note("offload")(item);
      return "ctx_0";
    },
    truncate: note("truncate"),
    drop: note("drop"),
    as: () => report,
  };
  const build = {
    tokenizer: wordTokenizer,
    countTokens: (item: Item) => {
      work.counted++;
      return wordTokenizer.count(itemText(item));
    },
    report,
  } as unknown as StageContext;
  const positions = new Map(items.map((item, position) => [item.id, position]));
  const turns = groups.of(items, { inputItems: [], turns: { groups: [], current: undefined, groupOf: () => undefined } });
  const context: CompressionContext = {
    build,
    budget,
    target: budget / 2,
    usage: 0,
    remaining,
    turns,
    isProtected: (item) => positions.get(item.id)! >= items.length - 2,
    isProtectedGroup: () => false,
    firstProtectedGroup: () => turns.groups.length,
    estimate: (item) => wordTokenizer.count(itemText(item)),
    itemById: (id) => {
      work.lookedUp++;
      const position = positions.get(id);
      return position === undefined ? undefined : items[position];
    },
  };
  const result = (await strategy.compress(items, context)) ?? items;
  return { result, work, decisions, runs };
}

describe("reuse on a history that only grew", () => {
  test("clear-tool-results scans on from where it stopped: no result it looked at is counted again", async () => {
    const first = parseItems(history(20));
    const grown = [...first, ...parseItems([{ id: "u-new", type: "user", text: "one more question" }])];
    const strategy = clearToolResults({ keepRecent: 2, clearAtLeast: 0 });
    await run(strategy, first, 500);
    const again = await run(strategy, grown, 500);
    // What a new strategy makes of the grown list, counting every result up to the goal.
    const fresh = await run(clearToolResults({ keepRecent: 2, clearAtLeast: 0 }), grown, 500);
    expect({ result: again.result, decisions: again.decisions }).toEqual({ result: fresh.result, decisions: fresh.decisions });
    expect(fresh.work.counted).toBeGreaterThan(0);
    expect(again.work.counted).toBe(0);
  });

  test("clear-tool-results: a goal that grew (the cut moved) counts only the results past the last scan", async () => {
    const items = parseItems(history(20));
    const strategy = clearToolResults({ keepRecent: 2, clearAtLeast: 0 });
    const first = await run(strategy, items, 300);
    const moved = await run(strategy, items, 900);
    const fresh = await run(clearToolResults({ keepRecent: 2, clearAtLeast: 0 }), items, 900);
    expect(moved.result).toEqual(fresh.result);
    // Each new clear counts the result and its placeholder: the ones cleared before are not counted again.
    expect(moved.work.counted).toBe(fresh.work.counted - first.work.counted);
  });

  test("clear-tool-results: a result passed over as one of the newest is looked at when it no longer is, and the scan before it holds", async () => {
    const first = parseItems(history(20));
    // One more turn: the result that was among the newest two items (protected here) no longer is.
    const grown = [...first, ...parseItems(toolTurn(21))];
    const strategy = clearToolResults({ keepRecent: 0, clearAtLeast: 0 });
    await run(strategy, first, 100_000);
    const again = await run(strategy, grown, 100_000);
    const fresh = await run(clearToolResults({ keepRecent: 0, clearAtLeast: 0 }), grown, 100_000);
    expect({ result: again.result, decisions: again.decisions }).toEqual({ result: fresh.result, decisions: fresh.decisions });
    expect(again.result[first.length - 2]).not.toBe(grown[first.length - 2]);
    // That one result and its placeholder; a scan from the start counts the 20 cleared ones again.
    expect(fresh.work.counted).toBe(40);
    expect(again.work.counted).toBe(2);
  });

  test("clear-tool-results records the clears of earlier builds as the same batches when it clears more: their report events are the same objects", async () => {
    const pipeline = createPipeline({ plugins: [new CompressionPlugin({ strategies: [clearToolResults({ keepRecent: 1, clearAtLeast: 0 })] })] });
    const items: ItemInput[] = history(30, 300);
    const options = { tokenizer: wordTokenizer, maxTokens: 9_000 };
    const before = await pipeline.build(items, options);
    items.push(...toolTurn(31, 300));
    const after = await pipeline.build(items, options);
    const clearedIds = (result: typeof before) => result.report.allEntries.filter((entry) => entry.decision === "cleared").map((entry) => entry.id);
    expect(clearedIds(after).length).toBeGreaterThan(clearedIds(before).length);
    const fresh = await createPipeline({ plugins: [new CompressionPlugin({ strategies: [clearToolResults({ keepRecent: 1, clearAtLeast: 0 })] })] }).build([...items], options);
    expect(after.request).toEqual(fresh.request);
    expect(clearedIds(after)).toEqual(clearedIds(fresh));
    const eventOf = (result: typeof before, id: string) => result.report.allEntries.find((entry) => entry.id === id)!.history[0];
    for (const id of clearedIds(before)) expect(eventOf(after, id)).toBe(eventOf(before, id));
  });

  test("a report's savings read after later builds are its own build's, though the chain's savings grew since", async () => {
    const strategies = () => [clearToolResults({ keepRecent: 1, clearAtLeast: 0 })];
    const pipeline = createPipeline({ plugins: [new CompressionPlugin({ strategies: strategies() })] });
    const items: ItemInput[] = history(30, 300);
    const options = { tokenizer: wordTokenizer, maxTokens: 9_000 };
    const first = await pipeline.build(items, options);
    items.push(...toolTurn(31, 300), ...toolTurn(32, 300));
    const later = await pipeline.build(items, options);
    const fresh = await createPipeline({ plugins: [new CompressionPlugin({ strategies: strategies() })] }).build(history(30, 300), options);
    // Read only now, after the later build made more clears.
    expect(later.report.compression!.savings.length).toBeGreaterThan(fresh.report.compression!.savings.length);
    expect(first.report.compression!.savings).toEqual(fresh.report.compression!.savings);
    expect(JSON.parse(JSON.stringify(first.report.compression))).toEqual(JSON.parse(JSON.stringify(fresh.report.compression)));
    expect(Object.keys(first.report.compression!)).toEqual(Object.keys(fresh.report.compression!));
  });

  test("truncate-tool-results looks again only at new items and the turns that gained items", async () => {
    const first = parseItems(history(20, 3_000));
    const grown = [...first, ...parseItems([{ id: "u-new", type: "user", text: "one more question" }])];
    const strategy = truncateToolResults({ maxTokensPerResult: 500 });
    const groups = new TurnGroupsCache();
    await run(strategy, first, 0, groups);
    const again = await run(strategy, grown, 0, groups);
    const fresh = await run(truncateToolResults({ maxTokensPerResult: 500 }), grown, 0);
    expect({ result: again.result, decisions: again.decisions }).toEqual({ result: fresh.result, decisions: fresh.decisions });
    expect(fresh.work.lookedUp).toBe(grown.length);
    // The new turn's one item; no result counted again.
    expect(again.work).toEqual({ counted: 0, lookedUp: 1 });
  });

  test("sliding-window sums only the turns it has not summed, and the same cut hands over the same ids as one run", async () => {
    const first = parseItems(history(20));
    const grown = [...first, ...parseItems(toolTurn(21))];
    const strategy = slidingWindow();
    const groups = new TurnGroupsCache();
    const before = await run(strategy, first, 700, groups);
    const again = await run(strategy, grown, 700, groups);
    const fresh = await run(slidingWindow(), grown, 700);
    expect({ result: again.result, decisions: again.decisions }).toEqual({ result: fresh.result, decisions: fresh.decisions });
    expect(again.result).toEqual(grown.slice(before.runs[0]!.ids.length));
    // A new window looks up the items of every turn up to the cut; the kept one looks up none.
    expect(fresh.work.lookedUp).toBeGreaterThan(0);
    expect(again.work.lookedUp).toBe(0);
    expect(again.runs).toHaveLength(1);
    expect(again.runs[0]!.ids).toBe(before.runs[0]!.ids);
    // A larger goal (the cut moved) sums on from the last turn summed.
    const moved = await run(strategy, grown, 2_000, groups);
    const movedFresh = await run(slidingWindow(), grown, 2_000);
    expect({ result: moved.result, decisions: moved.decisions }).toEqual({ result: movedFresh.result, decisions: movedFresh.decisions });
    expect(moved.work.lookedUp).toBe(movedFresh.work.lookedUp - fresh.work.lookedUp);
  });

  test("sliding-window: a result replaced in place by an earlier strategy (cleared as the cut moves) sums again only the groups from it on", async () => {
    const items = parseItems(history(20));
    const strategy = slidingWindow();
    const groups = new TurnGroupsCache();
    await run(strategy, items, 700, groups);
    // The result of turn 15 cleared: the same id, a shorter output, the list otherwise the same objects.
    const at = items.findIndex((item) => item.id === "t15");
    const cleared = items.slice();
    cleared[at] = Object.freeze({ ...(items[at] as Item & { output: string }), output: "cleared" });
    const again = await run(strategy, cleared, 4_000, groups);
    const fresh = await run(slidingWindow(), cleared, 4_000);
    expect({ result: again.result, decisions: again.decisions }).toEqual({ result: fresh.result, decisions: fresh.decisions });
    // Turns 1–14 were summed last build (a goal of 700 reached them) and are not looked up again.
    const summedBefore = (await run(slidingWindow(), items, 700)).work.lookedUp;
    expect(summedBefore).toBeGreaterThan(0);
    expect(again.work.lookedUp).toBe(fresh.work.lookedUp - Math.min(summedBefore, 14 * 4));
    // A result cleared inside the groups summed: they cost less now, and the cut moves on.
    const early = cleared.slice();
    const third = early.findIndex((item) => item.id === "t3");
    early[third] = Object.freeze({ ...(early[third] as Item & { output: string }), output: "cleared" });
    const moved = await run(strategy, early, 700, groups);
    const movedFresh = await run(slidingWindow(), early, 700);
    expect({ result: moved.result, decisions: moved.decisions }).toEqual({ result: movedFresh.result, decisions: movedFresh.decisions });
    expect(moved.result.length).toBeLessThan((await run(slidingWindow(), items, 700)).result.length);
  });

  test("a build whose count threw half-way through a resumed clearing scan leaves nothing of it to the next build", async () => {
    // The same tokenizer object every build: armed, it fails on the first placeholder it is asked to count.
    let armed = false;
    const flaky = {
      ...wordTokenizer,
      count(text: string) {
        if (armed && text.startsWith("[Tool result cleared")) {
          armed = false;
          throw new Error("tokenizer unavailable");
        }
        return wordTokenizer.count(text);
      },
    };
    const pipeline = () => createPipeline({ plugins: [new CompressionPlugin({ strategies: [clearToolResults({ keepRecent: 2, clearAtLeast: 0 })] })] });
    const items = history(20);
    const reused = pipeline();
    await reused.build(items, { tokenizer: flaky, maxTokens: 8_000 });
    // A smaller budget: the scan resumes from where it stopped and fails on the next result it clears.
    const smaller = { tokenizer: flaky, maxTokens: 6_000 };
    armed = true;
    await expect(reused.build(items, smaller)).rejects.toThrow("tokenizer unavailable");
    const again = await reused.build(items, smaller);
    const fresh = await pipeline().build(items, smaller);
    expect(again.report.compression?.strategies).toEqual(fresh.report.compression?.strategies);
    expect(again.request).toEqual(fresh.request);
  });

  test("a reused pipeline hands the later stages the same objects: the composed prompt, the list that only grew, the clear events", async () => {
    const lists: Items[] = [];
    const prompts: Item[] = [];
    const pipeline = createPipeline({
      plugins: [
        new CompressionPlugin({ strategies: [...DEFAULT_STRATEGIES], notice: true }),
        // Right after the chain, before the budget fit: the list the chain hands on.
        { name: "after-chain", apply: (host) => host.hooks.compress.tap({ name: "after-chain", stage: STAGE.LATE }, (items) => void lists.push(items)) },
        { name: "prompt", apply: (host) => host.hooks.validate.tap({ name: "prompt", stage: STAGE.DEFAULT }, (items) => void prompts.push(items[0]!)) },
      ],
    });
    const items: ItemInput[] = history(30, 300);
    const options = { tokenizer: wordTokenizer, system: "Be brief.", maxTokens: 6_000 };
    const before = await pipeline.build(items, options);
    items.push({ id: "u-new", type: "user", text: "one more question" });
    const after = await pipeline.build(items, options);

    const clearedIn = (result: typeof before) => result.report.allEntries.find((entry) => entry.decision === "cleared")!;
    expect(clearedIn(before).id).toBe(clearedIn(after).id);
    // The clears were recorded as one batch, by reference: the same event objects.
    expect(clearedIn(after).history[0]).toBe(clearedIn(before).history[0]);
    expect(lists[1]!.slice(0, lists[0]!.length).every((item, position) => item === lists[0]![position])).toBe(true);
    expect(lists[1]!.length).toBe(lists[0]!.length + 1);
    // The policy view's run (no notice of its own) does not make the build's prompt a new object.
    expect(prompts[1]).toBe(prompts[0]);
    expect(after.report.compression?.strategies.map((strategy) => strategy.name)).toEqual([...DEFAULT_STRATEGIES]);
  });
});
