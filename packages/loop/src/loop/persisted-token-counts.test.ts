// A process that never built a conversation (another host behind a load balancer, a restart) loads the
// token counts the store kept instead of tokenizing the history again, and builds what the process that
// built it before would have built.
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BudgetExceededError, type BuildResult, type ItemInput, type OpenAIChatRequest } from "@ctxpipe/core";
import { type ConversationStore, JsonlStore, type TokenCountRecord } from "@ctxpipe/store";
import { countKey, DEFAULT_MEMO_MIN_LENGTH, type ExactTokenizer, getEncoding, type ModelTokenizer } from "@ctxpipe/tokenizers";
import { describe, expect, it, vi } from "vitest";
import { counterIds, fixedClock, tempStore } from "../__fixtures__/loop-fixtures.js";
import { ChatLoop } from "../chat/chat-loop.js";
import { RunLoop } from "../run/run-loop.js";
import { scriptedModel } from "../model/scripted-model.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { PipelinePerConversation } from "./loop-options.js";

/** Every text the exact tokenizers the loops get have tokenized, in order. */
const tokenized = vi.hoisted(() => [] as string[]);

vi.mock("@ctxpipe/tokenizers", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@ctxpipe/tokenizers")>();
  const spies = new Map<object, ExactTokenizer>();
  const spy = (tokenizer: ExactTokenizer): ExactTokenizer => {
    let counting = spies.get(tokenizer);
    if (counting === undefined) {
      counting = Object.freeze({
        ...tokenizer,
        count(text: string) {
          tokenized.push(text);
          return tokenizer.count(text);
        },
      });
      spies.set(tokenizer, counting);
    }
    return counting;
  };
  return {
    ...actual,
    createTokenizer: (model: string, options?: Parameters<typeof actual.createTokenizer>[1]): ModelTokenizer => {
      const tokenizer = actual.createTokenizer(model, options);
      return tokenizer.exact ? spy(tokenizer) : tokenizer;
    },
  };
});

const SENTENCES = [
  "The build fails on CI but not locally, so the difference must be in the environment or the lockfile.",
  "构建在持续集成上失败，但在本地成功，所以差异一定在环境或锁文件里。",
  "Memory grows by about 40 MB per thousand requests, and the heap snapshot shows retained closures.",
  "What happens to in-flight jobs when the worker receives SIGTERM during a deploy?",
];
const prose = (turn: number, sentences: number) => `${Array.from({ length: sentences }, (_, index) => SENTENCES[(turn + index) % SENTENCES.length]).join(" ")} (${turn})`;
const readLog: LoopTool = { name: "read_log", run: (args) => `log of ${String(args.service)}:\n${Array.from({ length: 30 }, (_, line) => `2026-01-01T00:00:${String(line).padStart(2, "0")}Z INFO request ${line} served in ${line * 7} ms`).join("\n")}` };

/** A model that reads a log for each question, then answers at length: its answers follow from the request alone. */
const agentModel = () =>
  scriptedModel<"openai">(
    [
      (request: OpenAIChatRequest) => {
        const size = request.messages.length;
        return request.messages.at(-1)?.role === "tool" ? { text: prose(size, 3) } : { toolCalls: [{ name: "read_log", arguments: { service: `api-${size}` } }] };
      },
    ],
    { model: "gpt-4o", repeatLast: true },
  );

/** An id source or a clock that can start over, so two loops persist the same messages. */
function restartable<T>(make: () => () => T): { next: () => T; restart: () => void } {
  let current = make();
  return {
    next: () => current(),
    restart: () => {
      current = make();
    },
  };
}

/** What a build gave, as bytes: the request and the report (report.cache compares with the pipeline's previous build). */
function builtBytes(build: BuildResult<unknown>): string {
  const { cache: _cache, ...report } = build.report as unknown as Record<string, unknown>;
  return JSON.stringify({ request: build.request, tokenCount: build.tokenCount, report, allEntries: build.report.allEntries });
}

/** Sends one turn, returning the bytes of every build it made. */
async function sendTurn(loop: ChatLoop, userInput: string): Promise<string[]> {
  const builds: string[] = [];
  const result = await loop.send({ conversationId: "c1", userInput, onEvent: (event) => event.type === "built" && builds.push(builtBytes(event.result)) });
  expect(result.status).toBe("completed");
  return builds;
}

/** A copy of a store directory in a new place: what another host sees of it. */
function copyOf(directory: string): string {
  const copy = mkdtempSync(join(tmpdir(), "ctxpipe-loop-copy-"));
  cpSync(directory, copy, { recursive: true });
  return copy;
}

/** The same store without its token counts: a store written before they existed. */
function withoutTokenCounts(store: JsonlStore): ConversationStore {
  return {
    append: (id, messages) => store.append(id, messages),
    appendSummaries: (id, records) => store.appendSummaries(id, records),
    load: (id) => store.load(id),
  } as ConversationStore;
}

describe("persisted token counts in the loops", () => {
  it("a new ChatLoop over a new JsonlStore on the same files tokenizes no text counted before, and builds byte for byte what the first loop builds", async () => {
    const { store, directory } = tempStore();
    const ids = restartable(() => counterIds("a"));
    const clock = restartable(fixedClock);
    const first = new ChatLoop({ model: agentModel(), store, tools: [readLog], newId: ids.next, now: clock.next });
    tokenized.length = 0;
    for (let turn = 0; turn < 4; turn++) await sendTurn(first, prose(turn, 4));
    const countedBefore = new Set(tokenized.filter((text) => text.length >= DEFAULT_MEMO_MIN_LENGTH));
    expect(countedBefore.size).toBeGreaterThan(10);
    const freshDirectory = copyOf(directory);
    const uncountedDirectory = copyOf(directory);

    // The first loop goes on with the next turn, under ids and times a new loop would give too.
    ids.restart();
    clock.restart();
    const next = prose(9, 5);
    const continued = await sendTurn(first, next);

    // Another host: a new store on a copy of the files, and a new loop.
    const loop = (store: ConversationStore) => new ChatLoop({ model: agentModel(), store, tools: [readLog], newId: counterIds("a"), now: fixedClock() });
    tokenized.length = 0;
    expect(await sendTurn(loop(new JsonlStore({ directory: freshDirectory })), next)).toEqual(continued);
    expect(tokenized.filter((text) => countedBefore.has(text))).toEqual([]);

    // Without the counts, the same new loop builds the same but tokenizes the history again.
    tokenized.length = 0;
    expect(await sendTurn(loop(withoutTokenCounts(new JsonlStore({ directory: uncountedDirectory }))), next)).toEqual(continued);
    expect(new Set(tokenized.filter((text) => countedBefore.has(text)))).toEqual(countedBefore);
  });
});

describe("persisted token counts in run mode", () => {
  it("a new RunLoop over a new JsonlStore on the same files continues the run without tokenizing what the first counted", async () => {
    const workflow = { name: "Release", packageName: "ops-pack", steps: [{ id: "draft", name: "Draft notes", instruction: "Write the release notes." }], edges: [] };
    const answer = (request: OpenAIChatRequest) => ({ text: prose(request.messages.length, 3) });
    const { store, directory } = tempStore();
    tokenized.length = 0;
    const first = await new RunLoop({ model: scriptedModel<"openai">([answer], { model: "gpt-4o", repeatLast: true }), store, workflow }).continue({ runId: "r1", userInput: prose(1, 4) });
    expect(first.status).toBe("completed");
    // Counts made when the report is first read (its system parts) are kept with the next build's: a run
    // that ended leaves them to be counted again, which is why this compares with what the store kept.
    const kept = new Set((await store.loadTokenCounts("run-r1")).map((record) => record.key));
    expect(tokenized.filter((text) => kept.has(countKey(text))).length).toBeGreaterThan(0);

    tokenized.length = 0;
    const next = new RunLoop({ model: scriptedModel<"openai">([answer], { model: "gpt-4o", repeatLast: true }), store: new JsonlStore({ directory: copyOf(directory) }), workflow });
    expect((await next.continue({ runId: "r1", userInput: prose(2, 4) })).status).toBe("completed");
    expect(tokenized.filter((text) => kept.has(countKey(text)))).toEqual([]);
  });
});

/** A store keeping token counts in memory, recording what the loop asks of it; `fail` makes the next calls of a method reject. */
function countingStore(kept: ReadonlyArray<unknown> = []) {
  const calls: Array<[string, string, ReadonlyArray<TokenCountRecord>?]> = [];
  const failures = { load: 0, append: 0 };
  const store = {
    ...withoutTokenCounts(tempStore().store),
    async loadTokenCounts(conversationId: string) {
      calls.push(["load", conversationId]);
      if (failures.load-- > 0) throw new Error("connection reset");
      return kept as ReadonlyArray<TokenCountRecord>;
    },
    async appendTokenCounts(conversationId: string, records: ReadonlyArray<TokenCountRecord>) {
      calls.push(["append", conversationId, records]);
      if (failures.append-- > 0) throw new Error("disk full");
    },
  } satisfies ConversationStore;
  return { store, calls, failures };
}

const o200k = getEncoding("o200k_base");
const recordOf = (text: string): TokenCountRecord => ({ encoding: "o200k_base", key: countKey(text), tokens: o200k.count(text) });
const user = (id: string, text: string): ItemInput => ({ type: "user", id, text });
const QUESTION = prose(1, 4);
const FOLLOW_UP = prose(2, 4);
const AGENT = { mode: "agent" } as const;
const pipelinesOver = (store: ConversationStore, buildOptions = {}) => new PipelinePerConversation({ model: agentModel(), store, buildOptions });

describe("a loop pipeline over a store that keeps token counts", () => {
  it("loads the conversation's counts once, before its first build, and appends only what each build counted new", async () => {
    const { store, calls } = countingStore();
    const pipeline = pipelinesOver(store).for("c1");
    const history = [user("u1", QUESTION)];
    await Promise.all([pipeline.build(history, AGENT), pipeline.build(history, AGENT)]);
    expect(calls.map(([method]) => method)).toEqual(["load", "append"]);
    expect(calls[1]![2]).toContainEqual(recordOf(QUESTION));
    expect(new Set(calls[1]![2]!.map((record) => record.key)).size).toBe(calls[1]![2]!.length);

    await pipeline.build(history, AGENT);
    expect(calls).toHaveLength(2);
    await pipeline.build([...history, user("u2", FOLLOW_UP)], AGENT);
    expect(calls.slice(2)).toEqual([["append", "c1", [recordOf(FOLLOW_UP)]]]);
  });

  it("counts nothing the store kept, skips records that are junk, and builds what a pipeline without them builds", async () => {
    const kept = [null, { encoding: "o200k_base", key: "??", tokens: 3 }, { ...recordOf(QUESTION), tokens: -1 }, recordOf(QUESTION), recordOf(FOLLOW_UP)];
    const { store } = countingStore(kept);
    const history = [user("u1", QUESTION), user("u2", FOLLOW_UP)];
    tokenized.length = 0;
    const withCounts = await pipelinesOver(store).for("c1").build(history, AGENT);
    expect(tokenized.filter((text) => text === QUESTION || text === FOLLOW_UP)).toEqual([]);
    const without = await pipelinesOver(withoutTokenCounts(tempStore().store)).for("c1").build(history, AGENT);
    expect(builtBytes(withCounts)).toEqual(builtBytes(without));
  });

  it("a store that fails to load or append counts fails no build; counts an append lost are offered again with the next build's", async () => {
    const { store, calls, failures } = countingStore();
    failures.load = 1;
    failures.append = 1;
    const pipeline = pipelinesOver(store).for("c1");
    await pipeline.build([user("u1", QUESTION)], AGENT);
    const lost = calls[1]![2]!;
    await pipeline.build([user("u1", QUESTION), user("u2", FOLLOW_UP)], AGENT);
    expect(calls.map(([method]) => method)).toEqual(["load", "append", "append"]);
    expect(calls[2]![2]).toEqual([...lost, recordOf(FOLLOW_UP)]);
  });

  it("a build that fails (over budget) keeps what it counted", async () => {
    const { store, calls } = countingStore();
    const pipeline = pipelinesOver(store, { maxTokens: 200, reserveOutputTokens: 10 }).for("c1");
    await expect(pipeline.build([user("u1", prose(3, 40))], { ...AGENT, maxTokens: 200, reserveOutputTokens: 10 })).rejects.toBeInstanceOf(BudgetExceededError);
    expect(calls.map(([method]) => method)).toEqual(["load", "append"]);
    expect(calls[1]![2]).toContainEqual(recordOf(prose(3, 40)));
  });

  it("without a conversation id nothing is loaded or kept", async () => {
    const { store, calls } = countingStore();
    await pipelinesOver(store).for(undefined).build([user("u1", QUESTION)], AGENT);
    expect(calls).toEqual([]);
  });
});
