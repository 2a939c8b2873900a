import { describe, expect, test } from "vitest";
import { wordTokenizer } from "../testing/word-tokenizer.js";
import { contentHandle } from "../text/content-handle.js";
import type { DecisionBatch, DecisionRun } from "./decision-batch.js";
import { RECORD_DECISION_BATCH, RECORD_DECISION_RUN, recordDecisionBatch, recordDecisionRun } from "./decision-batch.js";
import { createPipeline } from "./pipeline.js";
import { STAGE } from "./stage.js";
import type { StageContext } from "./stage-context.js";

const batch: DecisionBatch = {
  decision: "cleared",
  entries: [
    { id: "t1", reason: "old result cleared", offload: { handle: contentHandle("the whole result"), text: "the whole result" } },
    { id: "t2", reason: "another old result cleared" },
  ],
};

function clearingPipeline() {
  return createPipeline({
    plugins: [
      {
        name: "clearer",
        apply: (host) =>
          host.hooks.compress.tap({ name: "clearer", stage: STAGE.EARLY }, (items, context) => {
            recordDecisionBatch(context, "my-strategy", batch);
            return items.map((item) => (item.type === "tool-result" && (item.id === "t1" || item.id === "t2") ? { ...item, output: "[cleared]" } : item));
          }),
      },
    ],
  });
}

const items = [
  { id: "u1", type: "user" as const, text: "read both" },
  { id: "c1", type: "assistant" as const, text: "", toolCalls: [{ id: "call_1", name: "read", arguments: "{}" }, { id: "call_2", name: "read", arguments: "{}" }] },
  { id: "t1", type: "tool-result" as const, callId: "call_1", output: "the whole result" },
  { id: "t2", type: "tool-result" as const, callId: "call_2", output: "the other result" },
];

describe("recordDecisionBatch", () => {
  test("records each decision under the plugin named, with its offloaded text, as report.as(plugin) would", async () => {
    const result = await clearingPipeline().build(items, { tokenizer: wordTokenizer });
    const events = result.report.entries.filter((entry) => entry.decision === "cleared").map((entry) => ({ id: entry.id, history: entry.history }));
    expect(events).toEqual([
      { id: "t1", history: [{ decision: "cleared", stage: "compress", plugin: "my-strategy", reason: "old result cleared" }] },
      { id: "t2", history: [{ decision: "cleared", stage: "compress", plugin: "my-strategy", reason: "another old result cleared" }] },
    ]);
    expect(result.report.offloaded).toEqual([{ handle: contentHandle("the whole result"), itemId: "t1", text: "the whole result", chars: 16 }]);
  });

  test("the same batch on the next build is recorded by reference: the same event objects", async () => {
    const pipeline = clearingPipeline();
    const first = await pipeline.build(items, { tokenizer: wordTokenizer });
    const second = await pipeline.build(items, { tokenizer: wordTokenizer });
    const eventOf = (result: typeof first) => result.report.entries.find((entry) => entry.id === "t2")!.history[0];
    expect(eventOf(second)).toBe(eventOf(first));
  });

  test("on a context the pipeline did not make, it calls the context's recorder decision by decision", () => {
    const calls: string[] = [];
    const recorder = {
      clear: (id: string, reason: string) => calls.push(`clear ${id}: ${reason}`),
      offload: (id: string, text: string) => {
        calls.push(`offload ${id}: ${text}`);
        return "";
      },
      drop: () => {},
      repair: () => {},
    };
    const as = (plugin: string) => {
      calls.push(`as ${plugin}`);
      return recorder;
    };
    const context = { report: { as } } as unknown as StageContext;
    recordDecisionBatch(context, "my-strategy", batch);
    expect(calls).toEqual(["as my-strategy", "offload t1: the whole result", "clear t1: old result cleared", "clear t2: another old result cleared"]);
  });

  test("a recorder that holds decisions for later (a compression chain's) takes the batch whole", () => {
    const held: unknown[] = [];
    const recorder = { [RECORD_DECISION_BATCH]: (given: DecisionBatch) => held.push(given) };
    const context = { report: { as: () => recorder } } as unknown as StageContext;
    recordDecisionBatch(context, "my-strategy", batch);
    expect(held).toEqual([batch]);
    expect(held[0]).toBe(batch);
  });
});

describe("recordDecisionRun", () => {
  const run: DecisionRun = { decision: "dropped", ids: ["u1", "c1", "t1", "t2"], reason: "the oldest turns went" };
  const history = [...items, { id: "u2", type: "user" as const, text: "and now?" }];

  function droppingPipeline(given: DecisionRun, byItem: boolean) {
    return createPipeline({
      plugins: [
        {
          name: "window",
          apply: (host) =>
            host.hooks.compress.tap({ name: "window", stage: STAGE.EARLY }, (list, context) => {
              if (byItem) for (const id of given.ids) context.report.as("my-window").drop(id, given.reason);
              else recordDecisionRun(context, "my-window", given);
              return list.slice(given.ids.length);
            }),
        },
      ],
    });
  }

  test("gives the report what a drop per item gives, with one event shared by every id", async () => {
    const byRun = await droppingPipeline(run, false).build(history, { tokenizer: wordTokenizer });
    const byItem = await droppingPipeline(run, true).build(history, { tokenizer: wordTokenizer });
    expect(JSON.parse(JSON.stringify(byRun.report))).toEqual(JSON.parse(JSON.stringify(byItem.report)));
    expect(byRun.excludedIds).toEqual(["u1", "c1", "t1", "t2"]);
    const dropped = byRun.report.entries.filter((entry) => entry.decision === "dropped");
    expect(dropped.map((entry) => entry.history)).toEqual(run.ids.map(() => [{ decision: "dropped", stage: "compress", plugin: "my-window", reason: "the oldest turns went" }]));
    expect(new Set(dropped.map((entry) => entry.history[0])).size).toBe(1);
  });

  test("on a context the pipeline did not make, it calls the context's recorder id by id", () => {
    const calls: string[] = [];
    const recorder = { drop: (id: string, reason: string) => calls.push(`drop ${id}: ${reason}`), clear: () => {}, repair: () => {} };
    const context = { report: { as: () => recorder } } as unknown as StageContext;
    recordDecisionRun(context, "my-window", { decision: "dropped", ids: ["a", "b"], reason: "old" });
    expect(calls).toEqual(["drop a: old", "drop b: old"]);
  });

  test("a recorder that holds decisions for later takes the run whole", () => {
    const held: unknown[] = [];
    const recorder = { [RECORD_DECISION_RUN]: (given: DecisionRun) => held.push(given) };
    const context = { report: { as: () => recorder } } as unknown as StageContext;
    recordDecisionRun(context, "my-window", run);
    expect(held[0]).toBe(run);
  });

  test("a run that is not { decision, ids, reason } is refused by name", async () => {
    const error = await droppingPipeline({ decision: "dropped", ids: "u1" as never, reason: "old" }, false)
      .build(history, { tokenizer: wordTokenizer })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "PluginError", plugin: "window", hook: "compress" });
    expect((error as Error).message).toContain("recordDecisionRun(): ids: needs an array of item ids");
  });

  test("items given for ids, an unknown decision or no reason are refused by field, wherever the run goes", () => {
    const recorder = { drop: () => {}, clear: () => {}, repair: () => {} };
    const context = { report: { as: () => recorder } } as unknown as StageContext;
    const attempt = (given: unknown) => {
      try {
        recordDecisionRun(context, "my-window", given as DecisionRun);
        return undefined;
      } catch (error) {
        return error as Error;
      }
    };
    expect(attempt({ decision: "dropped", ids: [{ id: "u1" }], reason: "old" })?.message).toBe("recordDecisionRun(): ids[0]: needs an item id (a non-empty string), got object");
    expect(attempt({ decision: "dropped", ids: ["u1", ""], reason: "old" })?.message).toBe("recordDecisionRun(): ids[1]: needs an item id (a non-empty string), got an empty string");
    expect(attempt({ decision: "gone", ids: ["u1"], reason: "old" })?.message).toBe('recordDecisionRun(): decision: "gone" is not "cleared", "dropped" or "repaired"');
    expect(attempt({ decision: "dropped", ids: ["u1"] })?.message).toBe("recordDecisionRun(): reason: needs a string");
    expect(attempt(null)?.message).toBe("recordDecisionRun(): needs a run { decision, ids, reason }");
  });
});
