// A reused pipeline with the default chain keeps last build's work (list indexes, the clearing scan,
// the cuts, decision batches, the later stages' memos). The promise that makes this safe: whatever it
// built before and however the history changed (grew, was edited in place, lost its end), it builds
// exactly what a new pipeline builds on the whole history: request, report, compression report,
// offloaded texts and the cache comparison with the build before.
import { createPipeline, type ItemInput } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { AnthropicMessagesRendererPlugin, GeminiRendererPlugin } from "@ctxpipe/renderers";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { agentConversations } from "./__fixtures__/conversation-arbitrary.js";
import { logText, randomFrom } from "./__fixtures__/giant-output.js";
import { CompressionPlugin, DEFAULT_STRATEGIES, type SummaryRecord } from "./index.js";

const SYSTEM = "You are a careful engineer.";
const NOW = Date.UTC(2025, 0, 1);
const TIMEOUT = 240_000;
const LIMIT = { interruptAfterTimeLimit: 60_000 } as const;

type Renderer = "openai" | "anthropic" | "gemini";
type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

/** What one change to the history is: items appended (a giant output among them, maybe), an item edited, the end cut off. */
const stepArbitrary = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("append" as const), count: fc.integer({ min: 1, max: 6 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("giant" as const), chars: fc.integer({ min: 2_000, max: 30_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("edit" as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("truncate" as const), count: fc.integer({ min: 1, max: 4 }) }) },
  // A call answered only after the next user turn (its result joins an older turn group), and a stored system message.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("late" as const), words: fc.integer({ min: 5, max: 300 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("system" as const) }) },
);
type Step = typeof stepArbitrary extends fc.Arbitrary<infer Value> ? Value : never;

async function outcomeOf(run: () => Promise<{ request: unknown; tokenCount: number; report: unknown; metadata: unknown; includedIds: unknown; excludedIds: unknown }>): Promise<Outcome> {
  try {
    const result = await run();
    const { request, tokenCount, metadata, includedIds, excludedIds } = result;
    // allEntries is not enumerable, so JSON leaves it out: compare it on its own.
    const { allEntries } = result.report as { allEntries: unknown };
    return { ok: true, value: JSON.parse(JSON.stringify({ request, tokenCount, report: result.report, allEntries, metadata, includedIds, excludedIds })) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

// The default chain, and the window on its own (it then drops originals, summaries and stored system messages among them).
const CHAINS = { default: DEFAULT_STRATEGIES, window: ["sliding-window"], "cut and window": ["truncate-tool-results", "sliding-window"] } as const;
type Chain = keyof typeof CHAINS;

function pipelineWith(notice: boolean, chain: Chain = "default") {
  return createPipeline({ plugins: [new CompressionPlugin({ strategies: [...CHAINS[chain]], notice }), new AnthropicMessagesRendererPlugin(), new GeminiRendererPlugin()] });
}

/** The history after one step; `pool` holds the items not appended yet, `giants` numbers the giant outputs. */
function applyStep(history: ItemInput[], pool: ItemInput[], step: Step, giants: { count: number }): void {
  if (step.kind === "append") history.push(...pool.splice(0, step.count));
  else if (step.kind === "giant") {
    const n = giants.count++;
    history.push(
      { id: `g${n}-user`, type: "user", text: `Read log ${n} and tell me what broke.` },
      { id: `g${n}-call`, type: "assistant", text: "", toolCalls: [{ id: `call_g${n}`, name: "read_log", arguments: `{"page":${n}}` }] },
      { id: `g${n}-result`, type: "tool-result", callId: `call_g${n}`, toolName: "read_log", output: logText(step.chars, randomFrom(n + 1)) },
    );
  } else if (step.kind === "edit" && history.length > 0) {
    // In place, in the app's own array: the same id with other content.
    const at = step.at % history.length;
    const item = history[at]! as ItemInput & { text?: string; output?: string };
    history[at] = "output" in item && typeof item.output === "string" ? { ...item, output: `${item.output} (edited)` } : "text" in item && typeof item.text === "string" ? { ...item, text: `${item.text} (edited)` } : item;
  } else if (step.kind === "truncate") history.splice(Math.max(0, history.length - step.count));
  else if (step.kind === "late") {
    const n = giants.count++;
    history.push(
      { id: `l${n}-call`, type: "assistant", text: "", toolCalls: [{ id: `call_l${n}`, name: "search", arguments: `{"q":${n}}` }] },
      { id: `l${n}-user`, type: "user", text: `While that runs: question ${n}.` },
      { id: `l${n}-result`, type: "tool-result", callId: `call_l${n}`, toolName: "search", output: "found ".repeat(step.words) },
    );
  } else if (step.kind === "system") history.push({ id: `s${giants.count++}-system`, type: "system", text: "Stored system note." });
}

describe("a reused pipeline with the default chain builds what a new one builds (property)", () => {
  test(
    "appends, giant outputs, late results, stored system messages, edits and a cut end, with pinned items and summary records, notice on and off, every renderer, the default chain and the window alone",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          agentConversations({ minTurns: 3, maxTurns: 10 }),
          fc.array(stepArbitrary, { minLength: 1, maxLength: 10 }),
          fc.boolean(),
          fc.integer({ min: 150, max: 2_500 }),
          fc.array(fc.nat(), { maxLength: 3 }),
          fc.boolean(),
          fc.boolean(),
          fc.constantFrom<Renderer>("openai", "anthropic", "gemini"),
          fc.constantFrom<Chain>("default", "default", "window", "cut and window"),
          // Where the current loop starts, given per build as an agent loop gives it (or not).
          fc.array(fc.option(fc.nat(), { nil: undefined, freq: 3 }), { maxLength: 11 }),
          async (conversation, steps, notice, maxTokens, pinnedAt, withRecord, readReportEveryTime, renderer, chain, loopStarts) => {
            const all = conversation.items.map((item, index) =>
              pinnedAt.some((at) => at % conversation.items.length === index) ? ({ ...item, metadata: { ...item.metadata, pinned: true } } as ItemInput) : item,
            );
            // A summary record of the first turns, as an application passes it back on every build.
            const records: SummaryRecord[] = [];
            if (withRecord) {
              const covered = all.slice(0, Math.min(4, all.length - 1)).map((item) => item.id);
              const made = await createPipeline({
                plugins: [new CompressionPlugin({ strategies: [{ type: "summarize", summarizer: ({ items }) => `Earlier: ${items.length} messages.`, now: () => NOW }], tokenBudget: 60, triggerThreshold: 0.5, targetUsage: 0.2 })],
              })
                .build(all.filter((item) => covered.includes(item.id)).concat(all.slice(covered.length)), { tokenizer: wordTokenizer, system: SYSTEM })
                .catch(() => undefined);
              records.push(...(made?.report.compression?.records ?? []));
            }
            const baseOptions = { renderer: renderer as "openai", tokenizer: wordTokenizer, system: SYSTEM, maxTokens, ...(records.length > 0 ? { summaries: records } : {}) };
            const options = baseOptions;
            const history: ItemInput[] = all.slice(0, Math.ceil(all.length / 2));
            const pool = all.slice(history.length);
            const giants = { count: 0 };
            const reused = pipelineWith(notice, chain);
            let previous: ItemInput[] | undefined;
            let previousOptions = options;
            for (const [index, step] of [undefined, ...steps].entries()) {
              if (step !== undefined) applyStep(history, pool, step, giants);
              const loopAt = loopStarts[index];
              const options = loopAt === undefined || history.length === 0 ? baseOptions : { ...baseOptions, compression: { loopStartId: history[loopAt % history.length]!.id } };
              // A new pipeline that built the history of the last build that succeeded first: its cache report compares the same two requests.
              const fresh = pipelineWith(notice, chain);
              if (previous !== undefined) await fresh.build([...previous], previousOptions);
              const expected = await outcomeOf(() => fresh.build([...history], options));
              if (readReportEveryTime) expect(await outcomeOf(() => reused.build(history, options))).toEqual(expected);
              else {
                // Only the request read: the report left unassembled must not change what the next build reuses.
                const result = await reused.build(history, options).catch(() => undefined);
                expect(result === undefined ? undefined : JSON.parse(JSON.stringify(result.request))).toEqual(expected.ok ? (expected.value as { request: unknown }).request : undefined);
              }
              if (expected.ok) {
                previous = [...history];
                previousOptions = options;
              }
            }
            // The last build's report, read after all the builds that did not read theirs, is whole.
            const fresh = pipelineWith(notice, chain);
            if (previous !== undefined) await fresh.build([...previous], previousOptions);
            expect(await outcomeOf(() => reused.build(history, previousOptions))).toEqual(await outcomeOf(() => fresh.build([...history], previousOptions)));
          },
        ),
        { numRuns: 60, ...LIMIT },
      );
    },
    TIMEOUT,
  );
});
