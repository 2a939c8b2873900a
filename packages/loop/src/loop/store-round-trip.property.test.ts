// A loop that reuses its pipeline and items across the store round trip builds what a new pipeline
// builds on the whole history imported fresh: for any sequence of sends (answers, tool calls, failed
// tools and failed calls, results cut and offloaded, summaries), over a real JSON-lines store, with a
// new loop and a new store object on the same directory now and then, every build's request and
// report are byte for byte those of a new pipeline (same plugins, same options) given a fresh import
// of what the store held at that moment.
import { CompressionPlugin, type CompressionPluginOptions, DEFAULT_STRATEGIES, type SummaryRecordInput } from "@ctxpipe/compression";
import { type BuildOptions, type BuildResult, type ItemInput, importStoredMessages, Pipeline } from "@ctxpipe/core";
import { JsonlStore, type StoredMessage } from "@ctxpipe/store";
import { systemPromptPlugins } from "@ctxpipe/system-prompt";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { counterIds, fixedClock, tempStore } from "../__fixtures__/loop-fixtures.js";
import { ChatLoop } from "../chat/chat-loop.js";
import { type ScriptedAnswer, scriptedModel } from "../model/scripted-model.js";
import type { LoopTool } from "../tools/loop-tool.js";

const BUDGET = 3_000;

const tools: LoopTool[] = [
  { name: "echo", run: (args) => `echo ${JSON.stringify(args)}` },
  // Far over a quarter of the budget: truncate-tool-results cuts it and the loop offloads the original.
  { name: "dump", run: (args) => Array.from({ length: Number(args.lines ?? 1) }, (_, line) => `line ${line}: worker ${line % 5} processed batch ${line * 7}`).join("\n") },
  {
    name: "boom",
    run: () => {
      throw new Error("the tool failed");
    },
  },
];

const words = fc.constantFrom("build", "cache", "lockfile", "预算", "naïve", "🙂", "retry", "\n", "tests");
const textArbitrary = (maxWords: number) => fc.array(words, { maxLength: maxWords }).map((parts) => parts.join(" "));

const answerArbitrary: fc.Arbitrary<ScriptedAnswer> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ text: textArbitrary(80) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      text: fc.constantFrom("", "Let me check."),
      toolCalls: fc.array(
        fc.oneof(
          fc.record({ name: fc.constant("echo"), arguments: fc.record({ note: textArbitrary(20) }) }),
          fc.record({ name: fc.constant("dump"), arguments: fc.record({ lines: fc.integer({ min: 1, max: 250 }) }) }),
          fc.record({ name: fc.constantFrom("boom", "missing"), arguments: fc.constant({}) }),
        ),
        { minLength: 1, maxLength: 2 },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ error: { message: "bad request", status: 400 } }) },
);

const sessionArbitrary = fc.record({
  sends: fc.array(
    fc.record({
      text: textArbitrary(40),
      /** A new loop and a new store object on the same directory (another process) make this send. */
      fresh: fc.boolean(),
      extra: fc.option(textArbitrary(10), { nil: undefined, freq: 4 }),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  answers: fc.array(answerArbitrary, { minLength: 1, maxLength: 14 }),
  summarize: fc.boolean(),
});

interface RecordedBuild {
  readonly items: ReadonlyArray<ItemInput>;
  readonly options: BuildOptions;
  /** What the store held when the build ran, loaded by a store object of its own and copied. */
  readonly stored: { messages: StoredMessage[]; summaries: unknown[] };
  readonly result: Promise<BuildResult<unknown>>;
}

/** The report as JSON, without `cache` (it compares with the pipeline's own previous request), with allEntries. */
function reportText(result: BuildResult<unknown>): string {
  const { cache: _, ...report } = result.report;
  return JSON.stringify({ ...report, allEntries: result.report.allEntries });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a loop after the store round trip", () => {
  it("builds, request and report, exactly what a new pipeline builds on the whole history imported fresh", async () => {
    const exercised = { builds: 0, reused: 0, offloaded: 0, summarized: 0, fresh: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(sessionArbitrary, async ({ sends, answers, summarize }) => {
        const { store, directory } = tempStore();
        const queue = [...answers];
        const model = scriptedModel([() => queue.shift() ?? { text: "Done." }], { repeatLast: true, model: "gpt-4o" });
        const compression: CompressionPluginOptions = summarize
          ? {
              // A fixed clock: a record's createdAt is the time it was made, which a rebuild must not change.
              strategies: ["truncate-tool-results", { type: "summarize", now: () => Date.UTC(2026, 0, 2) }, "sliding-window"],
              minRecentMessages: 2,
              summarizer: ({ items }) => `Summary of ${items.length} messages: ${items.map((item) => item.id).join(", ")}`,
            }
          : { strategies: [...DEFAULT_STRATEGIES] };
        const newId = counterIds("m");
        const now = fixedClock();
        const newLoop = (loopStore: JsonlStore) =>
          new ChatLoop({ model, store: loopStore, tools, compression, newId, now, maxTurns: 4, maxRetries: 0, buildOptions: { maxTokens: BUDGET, reserveOutputTokens: 500 } });

        const recorded: RecordedBuild[] = [];
        const build = Pipeline.prototype.build;
        vi.spyOn(Pipeline.prototype, "build").mockImplementation(async function (this: Pipeline, items: ReadonlyArray<ItemInput>, options: BuildOptions = {}) {
          // The loop waits for its build, so nothing is appended between this load and the build.
          const { messages, summaries } = await new JsonlStore({ directory }).load("c");
          const result = build.call(this, items, options);
          recorded.push({ items: items.slice(), options, stored: structuredClone({ messages: [...messages], summaries: [...summaries] }), result });
          return result;
        } as typeof build);

        let loop = newLoop(store);
        let previousItems: ReadonlyArray<ItemInput> | undefined;
        for (const send of sends) {
          if (send.fresh) {
            loop = newLoop(new JsonlStore({ directory }));
            exercised.fresh++;
          }
          const result = await loop.send({ conversationId: "c", userInput: `USER ${send.text}`, ...(send.extra === undefined ? {} : { extraUserMessages: [send.extra] }) });
          if (result.status === "failed") exercised.failed++;
        }
        vi.restoreAllMocks();

        for (const { items, options, stored, result } of recorded) {
          const built = await result.catch(() => undefined);
          if (built === undefined) continue;
          const { messages, summaries } = stored;
          // The history imported fresh, with the call's own extras where the loop put them.
          const imported = importStoredMessages(messages);
          let next = 0;
          const fresh = items.map((item) => (item.id.startsWith("extra-") ? item : imported[next++]!));
          expect(next).toBe(imported.length);
          const reference = new Pipeline({ plugins: [...systemPromptPlugins(), new CompressionPlugin({ notice: true, ...compression })] });
          const expected = await reference.build(fresh, { ...options, summaries: summaries as ReadonlyArray<SummaryRecordInput> });
          expect(JSON.stringify(built.request)).toBe(JSON.stringify(expected.request));
          expect(reportText(built)).toBe(reportText(expected));
          exercised.builds++;
          if (previousItems !== undefined && previousItems.length > 0 && items[0] === previousItems[0]) exercised.reused++;
          if (built.report.offloaded.length > 0) exercised.offloaded++;
          // Summaries made in this build, or made before and applied from the store.
          if ((built.report.compression?.records.length ?? 0) + (built.report.compression?.appliedSummaries.length ?? 0) > 0) exercised.summarized++;
          previousItems = items;
        }
      }),
      // A fixed seed keeps the suite deterministic; change it to explore other sessions.
      { numRuns: 30, seed: 24 },
    );
    // The property says little unless builds reused items, offloaded, summarized and ran in new processes.
    expect(exercised.builds).toBeGreaterThan(50);
    expect(exercised.reused).toBeGreaterThan(20);
    expect(exercised.offloaded).toBeGreaterThan(0);
    expect(exercised.summarized).toBeGreaterThan(2);
    expect(exercised.fresh).toBeGreaterThan(5);
    expect(exercised.failed).toBeGreaterThan(0);
  }, 180_000);
});
