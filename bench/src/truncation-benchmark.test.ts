import { wordTokenizer } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { giantOutputTurns, TRUNCATION_CONFIGURATIONS, truncationBenchmark } from "./truncation-benchmark.js";

describe("the giant-output loop benchmark", () => {
  test("its turns are the same on every run, each output 10–500 KB", () => {
    const turns = giantOutputTurns(8);
    expect(JSON.stringify(giantOutputTurns(8))).toBe(JSON.stringify(turns));
    for (const turn of turns) {
      const output = (turn.before[2] as { output: string }).output;
      expect(output.length).toBeGreaterThanOrEqual(10_000);
      expect(output.length).toBeLessThan(500_000 + 200);
    }
  });

  test("off is the default chain without truncate-tool-results", () => {
    expect(TRUNCATION_CONFIGURATIONS.map((configuration) => configuration.strategies)).toEqual([
      ["truncate-tool-results", "clear-tool-results", "sliding-window"],
      ["clear-tool-results", "sliding-window"],
    ]);
  });

  test("with truncation every turn builds and sends its newest output; without, a turn whose output is over the budget fails", { timeout: 120_000 }, async () => {
    const figures = await truncationBenchmark(4, wordTokenizer, 8_000);
    const [on, off] = figures.configurations;
    expect(on).toMatchObject({ failed: 0, newestOutputSent: 4, turns: 4 });
    expect(off!.failed).toBeGreaterThan(0);
  });
});
