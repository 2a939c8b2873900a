import { describe, expect, test } from "vitest";
import type { Item, ItemOf } from "../model/item.js";
import { toolLoopFixture, wordTokenizer } from "../testing/index.js";
import { contentHandle } from "../text/content-handle.js";
import { cutMiddle } from "../text/cut-middle.js";
import { HardLimitsPlugin } from "../plugins/hard-limits-plugin.js";
import { createPipeline } from "./pipeline.js";
import type { PipelinePlugin } from "./pipeline-hooks.js";
import type { StageContext } from "./stage-context.js";

const LOG = Array.from({ length: 300 }, (_, index) => `entry ${index} ok`).join("\n");

/** Cuts the named items' texts to 120 characters, reporting each cut; optionally offloads other texts too. */
function cutter(ids: ReadonlyArray<string>, extra?: (context: StageContext) => void): PipelinePlugin {
  return {
    name: "Cutter",
    apply(host) {
      host.hooks.compress.tap({ name: "Cutter" }, (items, context) => {
        extra?.(context);
        return items.map((item): Item => {
          if (!ids.includes(item.id)) return item;
          const original = item.type === "tool-result" ? item.output : "text" in item ? item.text : "";
          const { text, cut } = cutMiddle(original, { maxChars: 300 });
          if (cut === undefined) return item;
          context.report.truncate(item, "longer than 300 characters", cut, original);
          return item.type === "tool-result" ? ({ ...item, output: text } satisfies ItemOf<"tool-result">) : ({ ...item, text } as Item);
        });
      });
    },
  };
}

const withLogs = () => toolLoopFixture().map((item) => (item.id === "t1" ? { ...item, output: LOG } : item.id === "t2" ? { ...item, output: `${LOG}\nsecond` } : item));

describe("truncated items and report.offloaded", () => {
  test("a truncated tool result is still sent under its id; its entry says what was cut and what that saved; the original is offloaded", async () => {
    const result = await createPipeline({ plugins: [cutter(["t1"])] }).build(withLogs(), { tokenizer: wordTokenizer });
    const sent = cutMiddle(LOG, { maxChars: 300 });
    const entry = result.report.entries.find((candidate) => candidate.id === "t1")!;
    const event = { decision: "truncated", stage: "compress", plugin: "Cutter", reason: "longer than 300 characters", cut: sent.cut };
    expect(entry).toEqual({
      id: "t1",
      inputIndex: 2,
      type: "tool-result",
      role: "tool",
      ...event,
      tokens: wordTokenizer.count(sent.text),
      tokensSaved: wordTokenizer.count(LOG) - wordTokenizer.count(sent.text),
      messageIndex: 2,
      history: [event],
    });
    expect(result.report.offloaded).toEqual([{ handle: contentHandle(LOG), itemId: "t1", text: LOG, chars: LOG.length }]);
    expect(result.includedIds).toContain("t1");
    const toolMessage = (result.request.messages[2] as { content: string }).content;
    expect(toolMessage).toBe(sent.text);
    expect(toolMessage).not.toContain("entry 150 ok");
  });

  test("offloaded lists each handle once, in input order, whatever order the plugins recorded them in", async () => {
    const duplicated = withLogs().map((item) => (item.id === "t2" ? { ...item, output: LOG } : item));
    const plugin = cutter(["t2", "t1"], (context) => {
      // Recorded first, but its item comes last in the input.
      expect(context.report.offload("a2", "the answer's draft")).toBe(contentHandle("the answer's draft"));
      context.report.as("Other").offload("u1", "the question's attachment");
    });
    const result = await createPipeline({ plugins: [plugin] }).build(duplicated, { tokenizer: wordTokenizer });
    expect(result.report.offloaded).toEqual([
      { handle: contentHandle("the question's attachment"), itemId: "u1", text: "the question's attachment", chars: 25 },
      // Two items held this text: the one it was first recorded for names it.
      { handle: contentHandle(LOG), itemId: "t1", text: LOG, chars: LOG.length },
      { handle: contentHandle("the answer's draft"), itemId: "a2", text: "the answer's draft", chars: 18 },
    ]);
    // offload alone records no decision.
    expect(result.report.entries.find((entry) => entry.id === "a2")!.decision).toBe("kept");
    expect(result.report.entries.filter((entry) => entry.decision === "truncated").map((entry) => entry.id)).toEqual(["t1", "t2"]);
  });

  test("a text HardLimitsPlugin cut for a provider's string limit is offloaded: a provider limit is no policy, so the model may read it back", async () => {
    const giant = "y".repeat(30_000);
    const input = [{ id: "u1", type: "user" as const, text: "Read this." }, { id: "u2", type: "user" as const, text: giant }];
    const pipeline = createPipeline({ plugins: [new HardLimitsPlugin({ maxChars: 20_000, wrappingRoom: 0 })] });
    for (const build of [() => pipeline.build(input), () => pipeline.build(input)]) {
      const result = await build();
      expect(result.report.entries.map((entry) => entry.decision)).toEqual(["kept", "truncated"]);
      expect(result.report.offloaded).toEqual([{ handle: contentHandle(giant), itemId: "u2", text: giant, chars: 30_000 }]);
      expect(result.report.warnings).toEqual([]);
    }
  });

  test("a build that cuts nothing has an empty offloaded list; the report field cannot be attached over", async () => {
    const refused: string[] = [];
    const noter: PipelinePlugin = {
      name: "Noter",
      apply(host) {
        host.hooks.compress.tap({ name: "Noter" }, (_items, context) => {
          try {
            (context.report.attach as (key: string, value: unknown) => void)("offloaded", []);
          } catch (error) {
            refused.push((error as Error).message);
          }
        });
      },
    };
    const result = await createPipeline({ plugins: [noter] }).build(toolLoopFixture(), { tokenizer: wordTokenizer });
    expect(result.report.offloaded).toEqual([]);
    expect(refused).toEqual(['report.attach(): "offloaded" is one of the report\'s own fields']);
  });

  test.for([
    ["a cut past the end of the original", { handle: "ctx_0000000000000000", from: 10, to: 99_999, chars: 99_989, tokens: 1 }, "report.truncate(): the cut 10..99999 is not a range of the original text given (4 characters)"],
    ["an empty cut", { handle: "ctx_0000000000000000", from: 2, to: 2, chars: 0, tokens: 0 }, "report.truncate(): the cut 2..2 is not a range of the original text given (4 characters)"],
  ] as const)("report.truncate refuses %s", async ([, cut, message]) => {
    const plugin: PipelinePlugin = {
      name: "BadCutter",
      apply(host) {
        host.hooks.compress.tap({ name: "BadCutter" }, (_items, context) => context.report.truncate("t1", "bad", cut, "text"));
      },
    };
    await expect(createPipeline({ plugins: [plugin] }).build(toolLoopFixture(), { tokenizer: wordTokenizer })).rejects.toThrow(message);
  });
});
