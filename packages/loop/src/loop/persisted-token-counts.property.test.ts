// Persisted counts through a real store never change a build: a conversation's pipeline in a new process,
// over a JsonlStore holding the counts an earlier process kept (for an older state of the history, some
// of its messages since edited), another encoding's counts and torn lines, builds byte for byte what a
// pipeline over the same store without its counts builds.
import { appendFileSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BuildResult, ItemInput } from "@ctxpipe/core";
import { type ConversationStore, JsonlStore } from "@ctxpipe/store";
import { countKey, getEncoding } from "@ctxpipe/tokenizers";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { scriptedModel } from "../model/scripted-model.js";
import { PipelinePerConversation } from "./loop-options.js";

const SENTENCES = [
  "The build fails on CI but not locally, so the difference must be in the environment or the lockfile.",
  "构建在持续集成上失败，但在本地成功，所以差异一定在环境或锁文件里。",
  "Memory grows by about 40 MB per thousand requests 🚀, and the heap snapshot shows retained closures.",
  '{"status":"ok","rows":[1,2,3],"next":null}',
  "2026-01-01T00:00:07Z WARN retrying request after ECONNRESET",
];
/** Texts of 0 to about 900 characters: under and over the length that gets a record. */
const text = fc.array(fc.nat(SENTENCES.length - 1), { maxLength: 9 }).map((picks) => picks.map((pick) => SENTENCES[pick]).join(" "));

const turn = fc.record({ question: text, call: fc.option(fc.record({ args: text, output: text }), { nil: undefined }), answer: text });
type Turn = typeof turn extends fc.Arbitrary<infer T> ? T : never;

function itemsOf(turns: ReadonlyArray<Turn>): ItemInput[] {
  return turns.flatMap((each, index): ItemInput[] => [
    { type: "user", id: `u${index}`, text: `${index}: ${each.question}` },
    ...(each.call === undefined
      ? []
      : ([
          { type: "assistant", id: `c${index}`, text: "", toolCalls: [{ id: `call${index}`, name: "read_log", arguments: JSON.stringify({ query: each.call.args }) }] },
          { type: "tool-result", id: `r${index}`, callId: `call${index}`, toolName: "read_log", output: each.call.output },
        ] as ItemInput[])),
    { type: "assistant", id: `a${index}`, text: each.answer },
  ]);
}

/** The same item with its text changed, as an edited message is stored again under its id. */
function edited(item: ItemInput): ItemInput {
  const record = item as Record<string, unknown>;
  for (const field of ["text", "output"]) if (typeof record[field] === "string" && record[field] !== "") return { ...record, [field]: `${record[field]} (edited)` } as ItemInput;
  return item;
}

function builtBytes(build: BuildResult<unknown>): string {
  const { cache: _cache, ...report } = build.report as unknown as Record<string, unknown>;
  return JSON.stringify({ request: build.request, tokenCount: build.tokenCount, report, allEntries: build.report.allEntries });
}

async function outcomeOf(build: () => Promise<BuildResult<unknown>>): Promise<string> {
  try {
    return builtBytes(await build());
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

const withoutTokenCounts = (store: JsonlStore): ConversationStore =>
  ({ append: (id, messages) => store.append(id, messages), appendSummaries: (id, records) => store.appendSummaries(id, records), load: (id) => store.load(id) }) as ConversationStore;

describe("persisted token counts through a JsonlStore", () => {
  test("a new process's conversation pipeline over the counts an earlier one kept builds what counting every text builds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(turn, { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.array(fc.boolean(), { maxLength: 40 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 1_500, max: 6_000 }), { nil: undefined }),
        async (turns, split, edits, junk, maxTokens) => {
          const directory = mkdtempSync(join(tmpdir(), "ctxpipe-counts-"));
          const history = itemsOf(turns);
          const options = { mode: "agent", ...(maxTokens === undefined ? {} : { maxTokens }) } as const;
          const pipelines = (store: ConversationStore) => new PipelinePerConversation({ model: scriptedModel([], { model: "gpt-4o" }), store, buildOptions: maxTokens === undefined ? {} : { maxTokens } });

          // An earlier process built an older state of the conversation, some of it edited since, and kept its counts.
          const older = history.slice(0, split % (history.length + 1)).map((item, index) => (edits[index] === true ? edited(item) : item));
          const earlierStore = new JsonlStore({ directory });
          await pipelines(earlierStore).for("c1").build(older, options).catch(() => undefined);
          // Another encoding's counts of the same texts, and lines a crash or an editor tore.
          const cl100k = getEncoding("cl100k_base");
          await earlierStore.appendTokenCounts("c1", [{ encoding: "cl100k_base", key: countKey(SENTENCES[0]!), tokens: cl100k.count(SENTENCES[0]!) }]);
          if (junk) {
            const [file] = readdirSync(join(directory, ".token-counts"));
            if (file !== undefined) appendFileSync(join(directory, ".token-counts", file), '{"counts":{"encoding":"o200k_base","keys":["12-abc"],"tokens":["x"]}}\n{"counts":{"enc');
          }
          await earlierStore.close();

          const withCounts = await outcomeOf(() => pipelines(new JsonlStore({ directory })).for("c1").build(history, options));
          const counted = await outcomeOf(() => pipelines(withoutTokenCounts(new JsonlStore({ directory }))).for("c1").build(history, options));
          expect(withCounts).toEqual(counted);
        },
      ),
      { numRuns: 40 },
    );
  });
});
