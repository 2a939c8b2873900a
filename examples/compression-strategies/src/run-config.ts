// Builds the conversation with one configuration: once on a fresh pipeline (what did each strategy do?),
// then turn by turn on one pipeline as the conversation grows, persisting the summary records each
// build makes and passing them back, as an application would (how often did the cached prefix break?).
import { CompressionPlugin, type StrategyReport, type SummaryRecord } from "@ctxpipe/compression";
import { type BuildResult, type CacheReport, createPipeline, type OpenAIChatRequest } from "@ctxpipe/core";
import { agentConversation, SYSTEM_PROMPT, TOOLS } from "./agent-conversation.js";
import { type CompressionConfig, loadConfig } from "./load-config.js";
import { localSummarizer } from "./local-summarizer.js";

/** The model's window in this example; the request must fit in it. */
export const MAX_TOKENS = 12_000;
/** Turns of the conversation. */
export const TURNS = 50;

export interface TurnOutcome {
  readonly turn: number;
  readonly tokenCount: number;
  readonly cache: CacheReport;
}

export interface ConfigRun {
  readonly config: CompressionConfig;
  /** The whole conversation built on a fresh pipeline. */
  readonly build: BuildResult<OpenAIChatRequest>;
  readonly strategies: ReadonlyArray<StrategyReport>;
  /** Decisions other than "kept", counted by plugin (the strategy's name) and decision. */
  readonly decisions: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly records: ReadonlyArray<SummaryRecord>;
  /** One build per turn on one pipeline, turns 1 to TURNS. */
  readonly turns: ReadonlyArray<TurnOutcome>;
  /** The last of those builds: the same history as `build`, on a pipeline that built every turn before it. */
  readonly lastBuild: BuildResult<OpenAIChatRequest>;
  /** Turns whose request did not start with the whole of the previous turn's request. */
  readonly cacheBreaks: number;
  /** Times the summarizer was called over the TURNS builds (persisted records are reused, not remade). */
  readonly summarizerCalls: number;
}

export async function runConfig(name: string, turns = TURNS): Promise<ConfigRun> {
  const config = loadConfig(name);
  let summarizerCalls = 0;
  const countingSummarizer: typeof localSummarizer = (request) => {
    summarizerCalls++;
    return localSummarizer(request);
  };
  const pipelineFor = () => createPipeline({ plugins: [new CompressionPlugin({ ...config.options, summarizer: countingSummarizer })] });
  const options = { system: SYSTEM_PROMPT, tools: TOOLS, maxTokens: MAX_TOKENS };

  const build = await pipelineFor().build(agentConversation(turns), options);
  const decisions: Record<string, Record<string, number>> = {};
  for (const entry of build.report.entries) {
    if (entry.decision === "kept") continue;
    const byDecision = decisions[entry.plugin] ?? {};
    byDecision[entry.decision] = (byDecision[entry.decision] ?? 0) + 1;
    decisions[entry.plugin] = byDecision;
  }
  const compression = build.report.compression!;

  // The conversation growing: the application stores every record a build makes and hands them all back.
  summarizerCalls = 0;
  const pipeline = pipelineFor();
  const store = new Map<string, SummaryRecord>();
  const outcomes: TurnOutcome[] = [];
  let lastBuild = build;
  for (let turn = 1; turn <= turns; turn++) {
    const result = await pipeline.build(agentConversation(turn), { ...options, summaries: [...store.values()] });
    lastBuild = result;
    for (const record of result.report.compression?.records ?? []) store.set(record.id, record);
    outcomes.push({ turn, tokenCount: result.tokenCount, cache: result.report.cache });
  }

  return {
    config,
    build,
    strategies: compression.strategies,
    decisions,
    records: compression.records,
    turns: outcomes,
    lastBuild,
    cacheBreaks: outcomes.filter((outcome) => outcome.cache.compared && outcome.cache.breaksAt !== undefined).length,
    summarizerCalls,
  };
}
