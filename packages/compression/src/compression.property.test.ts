// Property tests for issue 6's "Done when": for any agent conversation and any budget that fits the
// newest turn, every strategy and chain yields a request within budget, valid for every provider,
// with the newest user message kept and the current loop untouched; a budget below the newest turn
// fails with a BudgetExceededError that says so. Also: nothing is lost silently, builds are
// deterministic and keep the prompt cache's prefix between compression steps, a failing summarizer
// leaves the history intact, and a summary record made once is applied later without a second call.
import { BudgetExceededError, checkRules, createPipeline, type ItemInput, isBlank, type Pipeline, type PipelinePlugin } from "@ctxpipe/core";
import { wordTokenizer } from "@ctxpipe/core/testing";
import { AnthropicMessagesRendererPlugin, GeminiRendererPlugin, OpenAIResponsesRendererPlugin } from "@ctxpipe/renderers";
import { PROVIDERS, type ProviderName } from "@ctxpipe/renderers/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { agentConversations, type Conversation } from "./__fixtures__/conversation-arbitrary.js";
import { CompressionPlugin, type StrategyInput, type Summarizer, type SummaryRecord } from "./index.js";

const SYSTEM = "You are a careful engineer.";
const NOW = Date.UTC(2025, 0, 1);
const TIMEOUT = 120_000;
// Shrinking a failure goes through thousands of builds: past this, fast-check stops shrinking and
// reports the smallest counterexample reached (a passing run takes a few seconds).
const LIMIT = { interruptAfterTimeLimit: 20_000 } as const;

type Kind = "sliding-window" | "clear-tool-results" | "summarize" | "priority";

const CHAINS: ReadonlyArray<ReadonlyArray<Kind>> = [
  ["sliding-window"],
  ["clear-tool-results"],
  ["summarize"],
  ["priority"],
  ["clear-tool-results", "summarize", "sliding-window"],
  ["clear-tool-results", "sliding-window"],
  ["priority", "sliding-window"],
];

/** Settings each strategy of a chain is given: defaults, or tighter ones that make them act more. */
const variant = fc.record({
  keepRecent: fc.nat({ max: 4 }),
  clearAtLeast: fc.constantFrom<number>(0, 100, 1000),
  excludeMemory: fc.boolean(),
  maxSummaryTokens: fc.constantFrom(50, 1000),
  defaults: fc.boolean(),
});
type Variant = typeof variant extends fc.Arbitrary<infer Value> ? Value : never;

const thresholds = fc.record({
  minRecentMessages: fc.constantFrom(0, 2, 10),
  levels: fc.constantFrom([0.8, 0.5], [0.6, 0.3], [1, 1], [0.9, 0.2]),
});
type Thresholds = typeof thresholds extends fc.Arbitrary<infer Value> ? Value : never;

/** A deterministic summarizer: the same messages give the same text. */
const summarizeInTest: Summarizer = ({ items }) => `Earlier: ${items.length} messages, from ${items[0]?.id ?? "none"} to ${items.at(-1)?.id ?? "none"}.`;

function strategyOf(kind: Kind, settings: Variant, summarizer: Summarizer, timeoutMs: number | undefined): StrategyInput {
  if (kind === "summarize") return { type: "summarize", summarizer, now: () => NOW, maxSummaryTokens: settings.maxSummaryTokens, ...(timeoutMs === undefined ? {} : { timeoutMs }) };
  if (settings.defaults) return kind;
  if (kind === "clear-tool-results") return { type: kind, keepRecent: settings.keepRecent, clearAtLeast: settings.clearAtLeast, excludeTools: settings.excludeMemory ? ["memory"] : [] };
  return { type: kind };
}

function strategiesOf(chain: ReadonlyArray<Kind>, settings: Variant, summarizer: Summarizer = summarizeInTest, timeoutMs?: number): StrategyInput[] {
  return chain.map((kind) => strategyOf(kind, settings, summarizer, timeoutMs));
}

function renderers(): PipelinePlugin[] {
  return [new OpenAIResponsesRendererPlugin(), new AnthropicMessagesRendererPlugin(), new GeminiRendererPlugin()];
}

function compressionPipeline(chain: ReadonlyArray<Kind>, settings: Variant, levels: Thresholds, summarizer?: Summarizer, timeoutMs?: number): Pipeline {
  const plugin = new CompressionPlugin({
    strategies: strategiesOf(chain, settings, summarizer, timeoutMs),
    minRecentMessages: levels.minRecentMessages,
    triggerThreshold: levels.levels[0]!,
    targetUsage: levels.levels[1]!,
  });
  return createPipeline({ plugins: [plugin, ...renderers()] });
}

const MODELS: Record<ProviderName, string> = { openai: "gpt-4o", "openai-responses": "gpt-5", anthropic: "claude-sonnet-4-6", gemini: "gemini-3-pro" };

function optionsFor(provider: ProviderName, maxTokens?: number, reserveOutputTokens = 0) {
  return {
    renderer: provider as "openai",
    model: MODELS[provider],
    tokenizer: wordTokenizer,
    system: SYSTEM,
    validation: "throw" as const,
    ...(maxTokens === undefined ? {} : { maxTokens, reserveOutputTokens }),
  };
}

// Costs are measured without compression: a pipeline of the default plugins and the renderers.
const plain = createPipeline({ plugins: renderers() });

async function costOf(items: ReadonlyArray<ItemInput>, provider: ProviderName): Promise<number> {
  return (await plain.build(items, optionsFor(provider))).tokenCount;
}

/** What the current loop costs on its own (with the system prompt), and what the whole history costs. */
async function costsOf(conversation: Conversation, provider: ProviderName): Promise<{ newestTurn: number; whole: number }> {
  return { newestTurn: await costOf(conversation.items.slice(conversation.newestUser), provider), whole: await costOf(conversation.items, provider) };
}

/**
 * A budget between the newest turn's cost and a bit more than the whole history's, by per-mille; a
 * negative value is that many tokens under the whole history's cost (never under the newest turn's).
 */
function availableBetween(costs: { newestTurn: number; whole: number }, perMille: number): number {
  if (perMille < 0) return Math.max(costs.newestTurn, costs.whole + perMille);
  const high = Math.max(costs.newestTurn, costs.whole + 50);
  return costs.newestTurn + Math.floor(((high - costs.newestTurn) * perMille) / 1000);
}

const sent = (item: ItemInput) => item.metadata?.includeInContext !== false;
const readable = (text: string | undefined) => text !== undefined && !isBlank(text);
const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
const inRequest = (request: unknown, text: string) => JSON.stringify(request).includes(JSON.stringify(text.toWellFormed()).slice(1, -1));

type Built = Awaited<ReturnType<Pipeline["build"]>>;

/**
 * For the properties that are not about the budget: a build that gives up on a budget the newest turn
 * fits (core's retry loop, see the first property) is left to the first property to report.
 */
async function buildOrSkip(pipeline: Pipeline, items: ReadonlyArray<ItemInput>, options: Parameters<Pipeline["build"]>[1]): Promise<Built> {
  try {
    return await pipeline.build(items, options);
  } catch (error) {
    fc.pre(!(error instanceof BudgetExceededError && error.detail === undefined));
    throw error;
  }
}

/** A build's outcome as text: the request, or the error it failed with. */
async function outcomeOf(pipeline: Pipeline, items: ReadonlyArray<ItemInput>, options: Parameters<Pipeline["build"]>[1]): Promise<string> {
  try {
    const result = await pipeline.build(items, options);
    return JSON.stringify([result.request, result.includedIds, result.tokenCount]);
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

/** What property 1 promises of one build; returns the broken promises in words. */
function problemsOf(provider: (typeof PROVIDERS)[number], conversation: Conversation, result: Built, available: number): string[] {
  const problems: string[] = [];
  if (result.tokenCount > available) problems.push(`request of ${result.tokenCount} tokens over the ${available} available`);
  for (const violation of checkRules(provider.rules, result.request, { model: MODELS[provider.renderer] })) {
    problems.push(`${violation.rule} at ${violation.path ?? "?"}: ${violation.message}`);
  }
  const newest = conversation.items[conversation.newestUser]!;
  if (!result.includedIds.includes(newest.id!)) problems.push(`newest user message "${newest.id}" is not included`);
  if (newest.type === "user" && !inRequest(result.request, newest.text ?? "")) problems.push(`the text of newest user message "${newest.id}" is not in the request`);
  // The current loop: every item from the newest user message on goes out as it came in.
  for (const item of conversation.items.slice(conversation.newestUser)) {
    // A persisted model failure is core's to leave out (FailedCallsPlugin), current loop or not.
    if (!sent(item) || (item.type === "user" && !readable(item.text)) || item.type === "error") continue;
    const entry = result.report.entries.find((candidate) => candidate.id === item.id);
    const touched = entry?.history.filter((event) => event.decision === "dropped" || event.decision === "cleared" || event.decision === "summarized") ?? [];
    if (touched.length > 0) problems.push(`current-loop item "${item.id}" was ${touched.map((event) => `${event.decision} by ${event.plugin}`).join(", ")}`);
    if (!result.includedIds.includes(item.id!)) problems.push(`current-loop item "${item.id}" is not included`);
    const content = item.type === "tool-result" ? item.output : item.type === "user" || item.type === "assistant" ? item.text : undefined;
    if (readable(content) && !isJson(content!) && !inRequest(result.request, content!)) problems.push(`the content of current-loop item "${item.id}" is not in the request`);
  }
  return problems;
}

const conversations = agentConversations({ maxTurns: 8 });
const chainIndex = fc.nat({ max: CHAINS.length - 1 });
// Where budgets go wrong most: a few tokens under what the whole history costs (the estimate says
// everything fits, the rendered request is a few tokens over; negative values) and the newest turn's
// cost exactly (0).
const budgetPerMille = fc.oneof({ weight: 2, arbitrary: fc.nat({ max: 1000 }) }, { weight: 2, arbitrary: fc.integer({ min: -30, max: -1 }) }, { weight: 1, arbitrary: fc.constant(0) });

describe("compression: within budget, provider-valid, newest turn kept", () => {
  test(
    "every strategy and chain, any budget that fits the newest turn: within budget, valid for openai/anthropic/gemini, current loop untouched",
    async () => {
      let compressed = 0;
      await fc.assert(
        fc.asyncProperty(conversations, chainIndex, variant, thresholds, budgetPerMille, fc.nat({ max: 64 }), async (conversation, index, settings, levels, perMille, reserve) => {
          const chain = CHAINS[index]!;
          const pipeline = compressionPipeline(chain, settings, levels);
          const problems: string[] = [];
          for (const provider of PROVIDERS) {
            const available = availableBetween(await costsOf(conversation, provider.renderer), perMille);
            const result = await pipeline.build(conversation.items, optionsFor(provider.renderer, available + reserve, reserve));
            problems.push(...problemsOf(provider, conversation, result, available).map((problem) => `${provider.renderer} (${available} available): ${problem}`));
            if (result.report.compression?.ran === true) compressed++;
          }
          expect(problems).toEqual([]);
        }),
        { numRuns: 120, ...LIMIT },
      );
      // A share of the builds must have made the chain act, or the property says little about it.
      expect(compressed).toBeGreaterThan(60);
    },
    TIMEOUT,
  );

  test(
    "a budget below what the newest turn needs fails with BUDGET_EXCEEDED saying the newest turn does not fit",
    async () => {
      await fc.assert(
        fc.asyncProperty(conversations, chainIndex, variant, thresholds, fc.nat({ max: 1000 }), async (conversation, index, settings, levels, perMille) => {
          const chain = CHAINS[index]!;
          const pipeline = compressionPipeline(chain, settings, levels);
          for (const provider of PROVIDERS) {
            const { newestTurn } = await costsOf(conversation, provider.renderer);
            const available = Math.max(1, newestTurn - 1 - Math.floor(((newestTurn - 1) * perMille) / 2000));
            const error = await pipeline.build(conversation.items, optionsFor(provider.renderer, available)).then(
              () => undefined,
              (thrown: unknown) => thrown,
            );
            expect(error, `${provider.renderer}: ${available} available, the newest turn needs ${newestTurn}`).toBeInstanceOf(BudgetExceededError);
            expect((error as BudgetExceededError).code).toBe("BUDGET_EXCEEDED");
            expect((error as BudgetExceededError).message).toMatch(/newest turn/);
          }
        }),
        { numRuns: 60, ...LIMIT },
      );
    },
    TIMEOUT,
  );
});

describe("compression: nothing lost silently", () => {
  test(
    "one report entry per input item; every readable user/assistant message is sent or says who dropped, cleared or summarized it and why",
    async () => {
      await fc.assert(
        fc.asyncProperty(conversations, chainIndex, variant, thresholds, fc.nat({ max: 1000 }), async (conversation, index, settings, levels, perMille) => {
          const chain = CHAINS[index]!;
          const pipeline = compressionPipeline(chain, settings, levels);
          const available = availableBetween(await costsOf(conversation, "openai"), perMille);
          const result = await buildOrSkip(pipeline, conversation.items, optionsFor("openai", available));
          const { entries } = result.report;
          expect(entries.map((entry) => entry.id)).toEqual(conversation.items.map((item) => item.id));

          const strategies = new Set<string>(chain);
          // FailedCallsPlugin: core leaves persisted model failures out of the request, reported.
          const actors = new Set([...strategies, "apply-summaries", "FitBudgetPlugin", "FilterPlugin", "RepairOrphansPlugin", "FailedCallsPlugin"]);
          const ran = new Set(result.report.compression?.strategies.filter((strategy) => strategy.ran).map((strategy) => strategy.name));
          for (const [position, item] of conversation.items.entries()) {
            const entry = entries[position]!;
            if (entry.decision !== "kept") {
              expect(entry.reason, `reason for "${item.id}"`).not.toBe("");
              expect(actors, `who acted on "${item.id}"`).toContain(entry.plugin);
              if (strategies.has(entry.plugin)) expect(ran, `"${entry.plugin}" acted on "${item.id}" but the compression report says it did not run`).toContain(entry.plugin);
            }
            if ((item.type !== "user" && item.type !== "assistant") || !readable(item.text)) continue;
            if (result.includedIds.includes(item.id!)) continue;
            expect(["dropped", "summarized", "cleared"], `decision for unsent "${item.id}"`).toContain(entry.decision);
          }
        }),
        { numRuns: 150, ...LIMIT },
      );
    },
    TIMEOUT,
  );
});

describe("compression: determinism and prompt-cache stability", () => {
  const reused = new Map<number, Pipeline>();

  test(
    "the same input and options give byte-identical requests on a fresh and on a reused pipeline",
    async () => {
      await fc.assert(
        fc.asyncProperty(conversations, chainIndex, fc.constantFrom<ProviderName>("openai", "anthropic", "gemini"), fc.nat({ max: 1000 }), async (conversation, index, provider, perMille) => {
          const chain = CHAINS[index]!;
          const settings: Variant = { keepRecent: 1, clearAtLeast: 100, excludeMemory: true, maxSummaryTokens: 50, defaults: false };
          const levels: Thresholds = { minRecentMessages: 2, levels: [0.8, 0.5] };
          let pipeline = reused.get(index);
          if (pipeline === undefined) {
            pipeline = compressionPipeline(chain, settings, levels);
            reused.set(index, pipeline);
          }
          const available = availableBetween(await costsOf(conversation, provider), perMille);
          const options = optionsFor(provider, available);
          const fresh = await outcomeOf(compressionPipeline(chain, settings, levels), conversation.items, options);
          expect(await outcomeOf(pipeline, conversation.items, options)).toBe(fresh);
          expect(await outcomeOf(pipeline, conversation.items, options)).toBe(fresh);
          // Built twice in a row, the request is the same, so the prompt cache keeps all of it.
          if (!fresh.startsWith("BudgetExceededError")) expect((await pipeline.build(conversation.items, options)).report.cache.breaksAt).toBeUndefined();
        }),
        { numRuns: 80, ...LIMIT },
      );
    },
    TIMEOUT,
  );

  // The loops a history is made of: each starts at a user message that is sent (a blank or excluded
  // one does not start a current loop, so it stays in the loop before it).
  function loopsOf(items: ReadonlyArray<ItemInput>): ItemInput[][] {
    const loops: ItemInput[][] = [];
    for (const item of items) {
      if ((item.type === "user" && sent(item) && readable(item.text)) || loops.length === 0) loops.push([]);
      loops.at(-1)!.push(item);
    }
    return loops;
  }

  // An application builds when it is the model's turn: after a user message it sends, or once every
  // call of an assistant message has its result. Building elsewhere makes repair-orphans stand in for
  // what is missing (a result, a "Continue." after an assistant or error message), which the next
  // message then replaces; that last message is not a compression matter.
  function growthPoints(items: ReadonlyArray<ItemInput>, from: number): number[] {
    const points: number[] = [];
    for (let end = from; end <= items.length; end++) {
      const last = items[end - 1];
      const next = items[end];
      const modelsTurn = last !== undefined && ((last.type === "user" && sent(last) && readable(last.text)) || last.type === "tool-result");
      if (modelsTurn && next?.type !== "tool-result") points.push(end);
    }
    return points;
  }

  // Only sliding-window: a chain of clear-tool-results then sliding-window can break the prefix between
  // steps too (results that become clearable let clearing take a larger share of the same goal, and
  // the window gives turns back); docs/compression.md lists it under known limits.
  test.each([{ chain: ["sliding-window"] as Kind[] }])(
    "growing a history on one pipeline with $chain keeps the cached prefix except about once per compression step",
    async ({ chain }) => {
      let triggered = 0;
      await fc.assert(
        fc.asyncProperty(agentConversations({ minTurns: 8, maxTurns: 16, firstTurnReal: true }), async (conversation) => {
          const levels: Thresholds = { minRecentMessages: 2, levels: [0.8, 0.5] };
          const settings: Variant = { keepRecent: 2, clearAtLeast: 300, excludeMemory: false, maxSummaryTokens: 50, defaults: false };
          const pipeline = compressionPipeline(chain, settings, levels);
          // A budget every turn fits in with room to spare, and a third of the whole history: the
          // chain has to step several times as the history grows.
          let biggestTurn = 0;
          for (const turn of loopsOf(conversation.items)) biggestTurn = Math.max(biggestTurn, await costOf(turn, "openai"));
          const available = Math.max(Math.ceil(1.5 * biggestTurn) + 50, Math.floor((await costOf(conversation.items, "openai")) / 3));
          const firstUser = conversation.items.findIndex((item) => item.type === "user");
          const points = growthPoints(conversation.items, firstUser + 1);
          let breaks = 0;
          let fitBudgetActed = false;
          let compressed = false;
          let firstUsage: number | undefined;
          let lastUsage = 0;
          let lastGoal = 0;
          const where: string[] = [];
          for (const end of points) {
            const result = await pipeline.build(conversation.items.slice(0, end), optionsFor("openai", available));
            const compression = result.report.compression!;
            firstUsage ??= compression.usageBefore;
            lastUsage = compression.usageBefore;
            if (compression.triggered) compressed = true;
            if (result.report.entries.some((entry) => entry.plugin === "FitBudgetPlugin")) fitBudgetActed = true;
            if (result.report.cache.breaksAt !== undefined) {
              breaks++;
              const moved = compression.goal === lastGoal ? "same goal" : `goal ${lastGoal}→${compression.goal}`;
              where.push(`${end} (${moved}, ${result.report.cache.sameMessages}/${result.report.cache.previousMessages} messages kept)`);
            }
            lastGoal = compression.goal;
          }
          if (compressed) triggered++;
          // The chain's cut moves once per step of (trigger − target) × budget of growth, so at most
          // ceil(growth / step) times, plus one for the first trigger and one for rounding at the
          // ends. FitBudget, when it has to act, moves its own cut in steps of 0.1 × budget.
          const growth = Math.max(0, lastUsage - (firstUsage ?? 0));
          const step = Math.round(0.3 * available);
          const bound = Math.ceil(growth / step) + 2 + (fitBudgetActed ? Math.ceil(growth / Math.floor(0.1 * available)) : 0);
          expect(breaks, `breaks at ${where.join(", ")} over ${points.length} builds, growth ${growth}, budget ${available}`).toBeLessThanOrEqual(bound);
        }),
        { numRuns: 60, ...LIMIT },
      );
      // Most generated histories must really make the chain step, or the bound proves nothing.
      expect(triggered).toBeGreaterThan(36);
    },
    TIMEOUT,
  );
});

describe("compression: a failing summarizer", () => {
  const failing: Record<"threw" | "empty" | "timed-out", Summarizer> = {
    threw: () => {
      throw new Error("the model is overloaded");
    },
    empty: async () => "  ",
    "timed-out": () => new Promise<string>(() => {}),
  };

  test(
    "throwing, empty or never answering: the input is unchanged, the outcome is reported, and the request still fits",
    async () => {
      let asked = 0;
      await fc.assert(
        fc.asyncProperty(
          conversations,
          fc.constantFrom<ReadonlyArray<Kind>>(["summarize"], ["summarize", "sliding-window"], ["clear-tool-results", "summarize"], ["clear-tool-results", "summarize", "sliding-window"]),
          fc.constantFrom("threw" as const, "empty" as const, "timed-out" as const),
          fc.nat({ max: 1000 }),
          async (conversation, chain, outcome, perMille) => {
            const settings: Variant = { keepRecent: 1, clearAtLeast: 0, excludeMemory: false, maxSummaryTokens: 50, defaults: false };
            const levels: Thresholds = { minRecentMessages: 0, levels: [0.8, 0.5] };
            const pipeline = compressionPipeline(chain, settings, levels, failing[outcome], 15);
            const snapshot = structuredClone(conversation.items);
            const available = availableBetween(await costsOf(conversation, "openai"), perMille);
            const result = await pipeline.build(conversation.items, optionsFor("openai", available));
            expect(conversation.items).toEqual(snapshot);
            expect(result.tokenCount).toBeLessThanOrEqual(available);
            expect(result.report.entries.filter((entry) => entry.decision === "summarized")).toEqual([]);
            const compression = result.report.compression!;
            expect(compression.records).toEqual([]);
            if (compression.summarizer !== undefined) {
              asked++;
              expect(compression.summarizer.outcome).toBe(outcome);
              expect(compression.summarizer.error).toBeTruthy();
              expect(result.report.warnings.some((warning) => warning.includes("summarizer failed"))).toBe(true);
            }
          },
        ),
        { numRuns: 45, ...LIMIT },
      );
      // The property means nothing unless the summarizer was really asked in a good share of runs.
      expect(asked).toBeGreaterThan(10);
    },
    TIMEOUT,
  );
});

describe("compression: summary records round-trip", () => {
  test(
    "a record made once is applied in a later build with more messages, without calling the summarizer for what it covers",
    async () => {
      let roundTrips = 0;
      await fc.assert(
        fc.asyncProperty(agentConversations({ minTurns: 3, maxTurns: 8 }), agentConversations({ maxTurns: 2 }), fc.nat({ max: 600 }), async (conversation, more, perMille) => {
          const settings: Variant = { keepRecent: 1, clearAtLeast: 0, excludeMemory: false, maxSummaryTokens: 50, defaults: false };
          const levels: Thresholds = { minRecentMessages: 0, levels: [0.8, 0.5] };
          const first = compressionPipeline(["summarize", "sliding-window"], settings, levels);
          const available = availableBetween(await costsOf(conversation, "openai"), perMille);
          const made = await buildOrSkip(first, conversation.items, optionsFor("openai", available));
          const records: ReadonlyArray<SummaryRecord> = made.report.compression!.records;
          fc.pre(records.length > 0);
          const record = records[0]!;

          // The same history, then new messages (ids made unique), on a new pipeline: nothing remembered.
          const later = [...conversation.items, ...more.items.map((item) => ({ ...item, id: `later-${item.id}`, ...(item.type === "tool-result" ? { callId: `later_${item.callId}` } : {}), ...(item.type === "assistant" ? { toolCalls: (item.toolCalls ?? []).map((call) => ({ ...call, id: `later_${call.id}` })) } : {}) }) as ItemInput)];
          const requests: string[][] = [];
          const previousSummaries: string[] = [];
          const counting: Summarizer = (request) => {
            requests.push(request.items.map((item) => item.id));
            if (request.previousSummary !== undefined) previousSummaries.push(request.previousSummary);
            return summarizeInTest(request);
          };
          const second = compressionPipeline(["summarize", "sliding-window"], settings, levels, counting);
          // The new messages open a new current loop, which the budget must fit too.
          const newestTurn = await costOf(more.items.slice(more.newestUser), "openai");
          const result = await buildOrSkip(second, later, { ...optionsFor("openai", Math.max(available, newestTurn + 50)), summaries: records });
          roundTrips++;
          const compression = result.report.compression!;
          // Applied, or applied and then rolled into a newer summary of more messages: then the
          // summarizer got the record's text as the summary to continue, not its messages.
          const rolledInto = compression.records.find((newer) => newer.id !== record.id && record.coveredIds.every((id) => newer.coveredIds.includes(id)));
          if (rolledInto === undefined) expect(compression.appliedSummaries).toContain(record.id);
          else expect(previousSummaries.some((text) => text.includes(record.summary))).toBe(true);
          expect(compression.skippedSummaries).toEqual([]);
          for (const ids of requests) for (const id of record.coveredIds) expect(ids, "the summarizer was asked again for a message the record covers").not.toContain(id);
          if (!compression.triggered) expect(requests).toEqual([]);
          for (const id of record.coveredIds) {
            const entry = result.report.entries.find((candidate) => candidate.id === id);
            expect(entry?.decision, `decision for covered "${id}"`).toBe("summarized");
          }

          // Without a budget no strategy runs: the record alone stands in for what it covers.
          const unbudgeted = await compressionPipeline(["summarize"], settings, levels, counting).build(later, { ...optionsFor("openai"), summaries: records });
          expect(unbudgeted.report.compression!.appliedSummaries).toEqual([record.id]);
          for (const id of record.coveredIds) expect(unbudgeted.includedIds).not.toContain(id);
          expect(JSON.stringify(unbudgeted.request)).toContain(record.summary);
        }),
        { numRuns: 40, ...LIMIT },
      );
      expect(roundTrips).toBeGreaterThan(10);
    },
    TIMEOUT,
  );
});
