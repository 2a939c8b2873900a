// Sections 9–12 of `pnpm bench`: every path issue 24 names, each printed as the path users run now and,
// under it, the same path with this issue's reuse defeated (what it cost before), all as ratios to
// LangChain.js trimMessages measured in the same run (row g). 10,000 messages, exact o200k counts,
// budget half the history unless a row says otherwise; 1,000 messages too where that is cheap.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Tokenizer } from "@ctxpipe/core";
import { type ConversationStore, JsonlStore, supportsTokenCounts } from "@ctxpipe/store";
import { PostgresStore } from "@ctxpipe/store/postgres";
import { findPostgresBinaries } from "@ctxpipe/test-binaries";
import { type PostgresTestServer, startPostgresServer } from "../../packages/store/src/postgres/__fixtures__/start-postgres-server.js";
import { ChatLoop } from "../../packages/loop/src/index.js";
import { conversationFileName } from "../../packages/store/src/jsonl/conversation-file-name.js";
import { benchLoopOptions } from "./bench-loop-options.js";
import { freshProcessTurn, logReadFloor } from "./fresh-process-benchmark.js";
import type { FreshProcessTask } from "./fresh-process-turn.js";
import { type LibraryVariant, libraryTurnBenchmark } from "./library-turn-benchmark.js";
import { libraryTurnInChild } from "./library-turn-in-child.js";
import { type LoopVariant, loopSendBenchmark } from "./loop-send-benchmark.js";
import { formatMilliseconds } from "./measure.js";
import { formatMegabytes } from "./peak-rss.js";
import { asPersisted, persistHistory } from "./persisted-history.js";
import { rowCountingPool } from "./row-counting-pool.js";
import { storeReloadBenchmark } from "./store-reload-benchmark.js";
import { type TrimMessagesTurns, trimMessagesTurns } from "./trim-messages-turns.js";
import { formatTimesFaster, type TurnFigures, turnFigures } from "./turn-figures.js";
import { type TurnSubject, turnSubject } from "./turn-subject.js";

/** A young generation of 64 MB semi-spaces (Node's default on 64-bit is 16 MB). */
const SEMI_SPACE_FLAG = "--max-semi-space-size=64";

export interface ReuseSectionsOptions {
  readonly log: (line: string) => void;
  readonly tokenizer: Tokenizer;
  /** Timed turns of the paths as users run them. Default 200. */
  readonly turns?: number;
  /** Fresh processes per row of section 12. Default 3. */
  readonly freshProcessRuns?: number;
  /** The conversation sizes: every row at `large`, the cheap ones at `small` too. Default 10,000 and 1,000 messages. */
  readonly sizes?: { readonly small: number; readonly large: number };
}

type StoreKind = "JsonlStore" | "PostgresStore";

interface PersistedConversation {
  readonly conversationId: string;
  /** A new store object on the data (closed by whoever opened it). */
  readonly openStore: () => ConversationStore;
  readonly task: FreshProcessTask["store"];
}

const LABEL_WIDTH = 70;
const SCHEMA = "bench_reuse";
const number = (value: number) => Math.round(value).toLocaleString("en-US");

// gpt-4o's context window, the library rows' second budget.
const GPT_4O_BUDGET = 128_000;

export class ReuseSections {
  readonly #log: (line: string) => void;
  readonly #tokenizer: Tokenizer;
  readonly #turns: number;
  readonly #freshProcessRuns: number;
  readonly #small: number;
  readonly #large: number;
  readonly #trimMessages = new Map<number, Promise<TrimMessagesTurns>>();
  readonly #conversations = new Map<string, Promise<PersistedConversation>>();
  #directory: Promise<string> | undefined;
  #postgres: Promise<PostgresTestServer | { readonly skipped: string }> | undefined;

  constructor(options: ReuseSectionsOptions) {
    this.#log = options.log;
    this.#tokenizer = options.tokenizer;
    this.#turns = options.turns ?? 200;
    this.#freshProcessRuns = options.freshProcessRuns ?? 3;
    this.#small = options.sizes?.small ?? 1_000;
    this.#large = options.sizes?.large ?? 10_000;
  }

  /** The subject of `messages` messages, with room for every turn the sections take. */
  subject(messages: number): TurnSubject {
    // Room past the timed turns for the library rows to go on until the cut moves.
    return turnSubject(messages, this.#turns + 1_000);
  }

  /** Row g, measured once per size and shared by every section that divides by it. */
  trimMessages(messages: number): Promise<TrimMessagesTurns> {
    let figures = this.#trimMessages.get(messages);
    if (figures === undefined) {
      // At 10,000 messages a trim takes most of a second: 10 turns give a stable median.
      figures = trimMessagesTurns(this.subject(messages), messages === this.#large ? Math.min(10, this.#turns) : this.#turns, 60_000);
      this.#trimMessages.set(messages, figures);
    }
    return figures;
  }

  /** Section 9: rows a, b and g, in the library. */
  async printLibrary(): Promise<void> {
    this.#log("   now: one pipeline, items kept between turns (the app keeps its imported items and appends the new message's)");
    this.#log("   the before rows: the same turn with the reuse defeated: items imported again from the stored messages (new objects), or a new pipeline too");
    this.#log("   between two timed turns (of every row, trimMessages' too) the event loop runs once, untimed, as in an app while the model answers");
    for (const messages of [this.#small, this.#large]) {
      const subject = this.subject(messages);
      const peer = await this.#trimHeader(subject);
      const defeatedTurns = Math.min(this.#turns, messages === this.#large ? 5 : 20);
      for (const compression of [false, true]) {
        const name = compression ? "b. CompressionPlugin (DEFAULT_STRATEGIES, notice on), items kept" : "a. createPipeline(), items kept between turns";
        for (const variant of ["kept", "imported again", "new pipeline"] as const satisfies ReadonlyArray<LibraryVariant>) {
          const label = variant === "kept" ? name : variant === "imported again" ? "   before: same pipeline, items imported again each turn" : "   before: a new pipeline each turn (stateless server)";
          try {
            const figures = await libraryTurnBenchmark(subject, {
              compression,
              variant,
              turns: variant === "kept" ? this.#turns : defeatedTurns,
              budgetMs: variant === "kept" ? 60_000 : 20_000,
              tokenizer: this.#tokenizer,
              untilCutMoves: 1_000,
            });
            this.#row(label, figures.turns, peer, figures.rss);
            if (variant === "kept") {
              const moved = figures.cutMoves;
              if (moved.figures !== undefined) this.#row(`     the turns where the cut moved (${moved.count} of ${figures.turns.runs})`, moved.figures, peer);
              else if (figures.laterCutMove !== undefined) {
                const { turn, milliseconds } = figures.laterCutMove;
                this.#row(`     the cut did not move in ${figures.turns.runs} turns; it did on turn ${number(turn)}`, { runs: 1, median: milliseconds, p90: milliseconds, worst: milliseconds }, peer);
              } else this.#log(`     the cut never moved in these ${figures.turns.runs} turns, nor in ${number(1_000)} more`);
              if (figures.sameAsNewPipeline === false) this.#log("     DIFFERENT from a new pipeline on the last turn's items: reuse changed the result");
            }
          } catch (error) {
            this.#failed(label, error);
          }
        }
        if (compression && messages === this.#large) {
          // The same row in a child process whose young generation is larger: fewer scavenges, each of
          // which copies the lists a build keeps for the next one.
          const label = `   the same, node ${SEMI_SPACE_FLAG} (a child process)`;
          try {
            const figures = await libraryTurnInChild({ messages, turns: this.#turns, compression, budgetMs: 60_000 }, [SEMI_SPACE_FLAG]);
            this.#row(label, figures.turns, peer, figures.rss);
            if (figures.sameAsNewPipeline === false) this.#log("     DIFFERENT from a new pipeline on the last turn's items: reuse changed the result");
          } catch (error) {
            this.#failed(label, error);
          }
        }
      }
      // gpt-4o's window over a long history: the window's cut moves on most turns, as in a long-running agent.
      for (const compression of [false, true]) {
        const label = compression ? "b. CompressionPlugin, gpt-4o budget (128,000), items kept" : "a. createPipeline(), gpt-4o budget (128,000), items kept";
        try {
          const figures = await libraryTurnBenchmark(subject, { compression, variant: "kept", turns: this.#turns, budgetMs: 60_000, tokenizer: this.#tokenizer, maxTokens: GPT_4O_BUDGET });
          this.#row(label, figures.turns, peer, figures.rss);
          const moved = figures.cutMoves;
          if (moved.figures !== undefined) this.#row(`     the turns where the cut moved (${moved.count} of ${figures.turns.runs})`, moved.figures, peer);
          else this.#log(`     the cut never moved in these ${figures.turns.runs} turns`);
          if (figures.sameAsNewPipeline === false) this.#log("     DIFFERENT from a new pipeline on the last turn's items: reuse changed the result");
        } catch (error) {
          this.#failed(label, error);
        }
      }
    }
    this.#log("   the cut moved: the request no longer starts with the previous one up to its last user message (the fit's cut moved, a strategy");
    this.#log("   cleared or cut more, or the system prompt's note changed): a provider's prompt cache breaks inside the history;");
    this.#log("   every kept row's last request and report were compared with a new pipeline's on the same items");
  }

  /** Section 10: rows c and d, ChatLoop.send over each store. */
  async printLoops(): Promise<void> {
    this.#log("   now: one ChatLoop and one store object (a running server); each send persists the user's message, loads the log, imports,");
    this.#log("   builds, gets the scripted answer (no model time) and persists it");
    this.#log("   the before rows: loads hand back new message objects (no token counts kept), or a new ChatLoop and store object every send");
    const sizes: ReadonlyArray<readonly [number, ReadonlyArray<StoreKind>]> = [
      [this.#small, ["JsonlStore"]],
      [this.#large, ["JsonlStore", "PostgresStore"]],
    ];
    for (const [messages, kinds] of sizes) {
      const subject = this.subject(messages);
      const peer = await this.#trimHeader(subject);
      for (const kind of kinds) {
        const conversation = await this.#conversation(kind, subject);
        if (typeof conversation === "string") {
          this.#log(`   ${kind}: skipped: ${conversation}`);
          continue;
        }
        for (const budget of ["model", "half"] as const) {
          const row = kind === "JsonlStore" ? "c" : "d";
          const name = `${row}. ChatLoop.send, ${kind}, ${budget === "model" ? "gpt-4o budget (128,000)" : "half the history"}, one loop`;
          for (const variant of ["kept", "new objects per load", "new loop and store per send"] as const satisfies ReadonlyArray<LoopVariant>) {
            const label = variant === "kept" ? name : variant === "new objects per load" ? "   before: new message objects from every load" : "   before: a new ChatLoop and store object every send";
            try {
              const figures = await loopSendBenchmark(subject, {
                openStore: conversation.openStore,
                conversationId: conversation.conversationId,
                budget,
                variant,
                sends: variant === "kept" ? this.#turns : Math.min(this.#turns, messages === this.#large ? 5 : 10),
                budgetMs: variant === "kept" ? 40_000 : 15_000,
                tokenizer: this.#tokenizer,
              });
              this.#row(label, figures.sends, peer, figures.rss, variant === "kept" ? `${number(figures.tokensSent)} of ${number(figures.maxTokens)} tokens` : undefined);
            } catch (error) {
              this.#failed(label, error);
            }
          }
        }
      }
    }
  }

  /** Section 11: row e, a reload after one append. */
  async printReloads(): Promise<void> {
    const subject = this.subject(this.#large);
    const peer = await this.#trimHeader(subject);
    this.#log(`   ${"".padEnd(LABEL_WIDTH)} ${"".padStart(64)}${"rows read".padStart(9)}  same objects`);
    for (const kind of ["JsonlStore", "PostgresStore"] as const) {
      const conversation = await this.#conversation(kind, subject);
      if (typeof conversation === "string") {
        this.#log(`   ${kind}: skipped: ${conversation}`);
        continue;
      }
      const server = kind === "PostgresStore" ? ((await this.#postgres) as PostgresTestServer) : undefined;
      const pool = server === undefined ? undefined : rowCountingPool(server.connectionString);
      const open = (): ConversationStore => (pool === undefined ? conversation.openStore() : new PostgresStore({ pool: pool.pool, schema: SCHEMA, migrate: false }));
      const store = open();
      try {
        for (const variant of ["kept", "new store"] as const) {
          const stamp = Date.now();
          const appended = Array.from({ length: Math.min(20, this.#turns) }, (_, run) =>
            asPersisted({ id: `reload-${stamp}-${variant === "kept" ? "kept" : "new"}-${run}`, role: "user", content: `Reload ${run}: did the cache key change?`, createdAt: new Date(stamp + run).toISOString() }),
          );
          const label = variant === "kept" ? `e. ${kind}: append one, reload with the same store object` : `   before: a new store object per reload${pool === undefined ? "" : " (on the same pool)"}`;
          try {
            const figures = await storeReloadBenchmark({
              store,
              ...(variant === "new store" ? { openStore: open } : {}),
              conversationId: conversation.conversationId,
              runs: appended.length,
              message: (run) => appended[run]!,
              ...(pool === undefined ? {} : { rowsRead: pool.rowsRead }),
            });
            const rows = figures.rowsRead === undefined ? "—" : number(figures.rowsRead);
            this.#row(label, figures.reload, peer, undefined, `${rows.padStart(9)}  ${(figures.sameObjects * 100).toFixed(0)}% of ${number(figures.messages)}`);
          } catch (error) {
            this.#failed(label, error);
          }
        }
      } finally {
        await store.close();
        await pool?.pool.end();
      }
    }
    this.#log("   rows read: rows the store's queries returned per reload (JsonlStore reads its file from where the last load stopped);");
    this.#log("   same objects: the previous load's messages handed back as the same objects, which the loops' reuse depends on");
  }

  /** Section 12: row f, a fresh process building the next turn. */
  async printFreshProcess(): Promise<void> {
    const subject = this.subject(this.#large);
    const peer = await this.#trimHeader(subject);
    this.#log("   each run a new child process: Node and tsx start, one warm-up send without a store (a host up and serving others),");
    this.#log("   then, timed: open the store and ChatLoop.send (load, import, build with exact counts within gpt-4o's budget, default compression,");
    this.#log("   persist), or the library alone: load the log and its counts, import, build with a TokenCountMemo within gpt-4o's budget");
    this.#log(`   ${"".padEnd(LABEL_WIDTH)} ${"".padStart(64)}${"start".padStart(9)}  count records`);
    for (const kind of ["JsonlStore", "PostgresStore"] as const) {
      const conversation = await this.#conversation(kind, subject);
      if (typeof conversation === "string") {
        this.#log(`   ${kind}: skipped: ${conversation}`);
        continue;
      }
      // One send by a live process first, as the host that served the previous turn did: it persists the counts it made.
      const primer = conversation.openStore();
      try {
        await new ChatLoop(benchLoopOptions(primer)).send({ conversationId: conversation.conversationId, userInput: "Where did we leave the cache key?" });
      } finally {
        await primer.close();
      }
      const failures: string[] = [];
      for (const path of ["loop", "library"] as const) {
        const runs: Record<"with" | "without", Array<Awaited<ReturnType<typeof freshProcessTurn>>>> = { with: [], without: [] };
        for (let run = 0; run < this.#freshProcessRuns; run++) {
          for (const persisted of ["without", "with"] as const) {
            try {
              const task: FreshProcessTask = { store: conversation.task, conversationId: conversation.conversationId, userInput: `Next turn ${run}: what is left to check?`, persistedCounts: persisted === "with", path };
              runs[persisted].push(await freshProcessTurn(task));
            } catch (error) {
              failures.push((error as Error).message.split("\n")[0] ?? String(error));
            }
          }
        }
        for (const persisted of ["with", "without"] as const) {
          const label = persisted === "with" ? `f. fresh process, ${kind}, ${path === "loop" ? "ChatLoop.send" : "library build"}, persisted counts` : "   before: the store's token counts hidden (every text tokenized)";
          const done = runs[persisted];
          if (done.length === 0) continue;
          const turn = turnFigures(done.map((each) => each.turnMs));
          const start = turnFigures(done.map((each) => each.startMs)).median;
          const peak = turnFigures(done.map((each) => each.peakRss)).median;
          this.#row(label, turn, peer, peak, `${formatMilliseconds(start).padStart(6)} ms  ${number(turnFigures(done.map((each) => each.countRecords)).median)}`);
        }
      }
      if (conversation.task.kind === "jsonl") {
        // The floor: the same log read and parsed by a process running no ctxpipe code.
        const floors: Array<Awaited<ReturnType<typeof logReadFloor>>> = [];
        for (let run = 0; run < this.#freshProcessRuns; run++) {
          try {
            floors.push(await logReadFloor({ file: join(conversation.task.directory, conversationFileName(conversation.conversationId)) }));
          } catch (error) {
            failures.push((error as Error).message.split("\n")[0] ?? String(error));
          }
        }
        if (floors.length > 0) {
          const records = turnFigures(floors.map((each) => each.records)).median;
          this.#row("   floor: the log file read and parsed line by line, no ctxpipe code", turnFigures(floors.map((each) => each.turnMs)), peer, turnFigures(floors.map((each) => each.peakRss)).median, `${"".padStart(9)}  ${number(records)} lines`);
        }
      }
      for (const failure of [...new Set(failures)]) this.#log(`   ${kind} fresh process failed: ${failure}`);
      const store = conversation.openStore();
      try {
        if (!supportsTokenCounts(store)) this.#log(`   ${kind} keeps no token counts in this checkout: both rows tokenize every text`);
      } finally {
        await store.close();
      }
    }
    this.#log("   RSS: the child's peak (VmHWM); start: Node, tsx, modules and the warm-up send, not in the turn's time;");
    this.#log("   floor: a child that only reads the JSON-lines log (fs.readFile) and parses each line (JSON.parse), keeping the records");
  }

  /** Stops the PostgreSQL server and removes the temp dir. */
  async close(): Promise<void> {
    const server = await this.#postgres;
    if (server !== undefined && "stop" in server) await server.stop();
    if (this.#directory !== undefined) await rm(await this.#directory, { recursive: true, force: true });
  }

  async #trimHeader(subject: TurnSubject): Promise<TurnFigures> {
    const trim = await this.trimMessages(subject.messages);
    this.#log(`   ${number(subject.messages)} messages (${subject.megabytes.toFixed(1)} MB), budget ${number(subject.budgetTokens)} tokens (half the history) unless a row says otherwise`);
    this.#log(`   ${"".padEnd(LABEL_WIDTH)} ${"median".padStart(10)} ${"p90".padStart(10)} ${"worst".padStart(10)} ${"runs".padStart(5)} ${"trimMessages ÷".padStart(14)} ${"RSS".padStart(8)}`);
    this.#row("g. trimMessages (LangChain.js), memoized exact o200k counts", trim.turns, trim.turns, trim.rss);
    return trim.turns;
  }

  #row(label: string, figures: TurnFigures, peer: TurnFigures, rss?: number, note?: string): void {
    const ms = (value: number) => `${formatMilliseconds(value)} ms`.padStart(10);
    const cells = [ms(figures.median), ms(figures.p90), ms(figures.worst), `×${figures.runs}`.padStart(5), formatTimesFaster(peer, figures).padStart(14), (rss === undefined ? "" : formatMegabytes(rss)).padStart(8)];
    this.#log(`   ${label.padEnd(LABEL_WIDTH)} ${cells.join(" ")}${note === undefined ? "" : `  ${note}`}`.trimEnd());
  }

  #failed(label: string, error: unknown): void {
    const reason = error instanceof Error ? `${error.name}: ${error.message.split("\n")[0]}` : String(error);
    this.#log(`   ${label.padEnd(LABEL_WIDTH)} failed: ${reason}`);
  }

  /** The subject's history persisted once per store kind; a string says why the store is skipped. */
  #conversation(kind: StoreKind, subject: TurnSubject): Promise<PersistedConversation | string> {
    const key = `${kind}:${subject.messages}`;
    let conversation = this.#conversations.get(key);
    if (conversation === undefined) {
      conversation = this.#persist(kind, subject);
      this.#conversations.set(key, conversation);
    }
    return conversation.catch((error: unknown) => (error instanceof Error ? error.message.split("\n")[0]! : String(error)));
  }

  async #persist(kind: StoreKind, subject: TurnSubject): Promise<PersistedConversation> {
    const conversationId = `history-${subject.messages}`;
    let conversation: PersistedConversation;
    if (kind === "JsonlStore") {
      this.#directory ??= mkdtemp(join(tmpdir(), "ctxpipe-bench-reuse-"));
      const directory = await this.#directory;
      conversation = { conversationId, openStore: () => new JsonlStore({ directory }), task: { kind: "jsonl", directory } };
    } else {
      const server = await this.#server();
      if ("skipped" in server) throw new Error(server.skipped);
      const { connectionString } = server;
      conversation = { conversationId, openStore: () => new PostgresStore({ connectionString, schema: SCHEMA }), task: { kind: "postgres", connectionString, schema: SCHEMA } };
    }
    const store = conversation.openStore();
    try {
      await persistHistory(store, conversationId, subject.history);
    } finally {
      await store.close();
    }
    return conversation;
  }

  #server(): Promise<PostgresTestServer | { readonly skipped: string }> {
    this.#postgres ??= (async () => {
      let binaries: string;
      try {
        binaries = dirname(findPostgresBinaries().postgres);
      } catch (error) {
        return { skipped: `no PostgreSQL binaries (${(error as Error).message.split("\n")[0]})` };
      }
      const server = await startPostgresServer({ fsync: true });
      this.#log(`   PostgreSQL from ${binaries} started in ${formatMilliseconds(server.startupMilliseconds)} ms: fsync on, Unix socket`);
      return server;
    })();
    return this.#postgres;
  }
}
