// Rebuilding reuses work from earlier builds (parsed items, token counts, rendered messages, checked
// prefixes). The promise that makes this safe: a pipeline that has built before gives exactly what a
// new pipeline gives for the same input, whatever was built before and however the history grew.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { deepFreeze } from "../model/deep-freeze.js";
import type { ItemInput } from "../model/item.js";
import { parseItem } from "../model/parse-items.js";
import { copiesEditsDates } from "../testing/adversarial/copies-edits-dates.js";
import { adversarialConversations, wordTokenizer } from "../testing/index.js";
import type { BuildOptions, InputOrder } from "./build-options.js";
import { createPipeline } from "./pipeline.js";

/** A store's record as the loops hand it over: the parsed item, deep-frozen (an invalid one as it is). */
function storedItem(item: ItemInput): ItemInput {
  const parsed = parseItem(item, 0);
  return deepFreeze(Array.isArray(parsed) ? structuredClone(item) : parsed);
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: string };

async function outcomeOf(run: () => Promise<{ request: unknown; tokenCount: number; report: unknown; metadata: unknown; includedIds: unknown; excludedIds: unknown }>): Promise<Outcome> {
  try {
    const result = await run();
    const { request, tokenCount, metadata, includedIds, excludedIds } = result;
    // report.cache compares with the pipeline's previous build: the one field that depends on what it built before.
    const { cache: _cache, ...report } = result.report as { cache: unknown; allEntries: unknown };
    // allEntries is not enumerable, so JSON leaves it out: compare it on its own.
    const { allEntries } = result.report as { allEntries: unknown };
    return { ok: true, value: JSON.parse(JSON.stringify({ request, tokenCount, report, allEntries, metadata, includedIds, excludedIds })) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

describe("rebuilding", () => {
  test("a pipeline that built before gives what a new pipeline gives, as the history grows by any steps", async () => {
    await fc.assert(
      fc.asyncProperty(
        adversarialConversations(fc, { maxSteps: 24 }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 12 }),
        fc.option(fc.integer({ min: 20, max: 400 }), { nil: undefined }),
        fc.boolean(),
        fc.array(fc.option(fc.integer({ min: -3, max: 3 }), { nil: undefined }), { maxLength: 40 }),
        copiesEditsDates(fc),
        fc.constantFrom<InputOrder | undefined>(undefined, "createdAt", "input"),
        fc.boolean(),
        async (undated, steps, maxTokens, readReportEveryTime, dates, perturb, order, storeLike) => {
          // Some items are dated, a few out of order, so ordering has to move them; some records are
          // stored twice, edited later or carry a createdAt that is not a date, as in real stores.
          const perturbed = perturb(
            undated.map((item, index) => {
              const shift = dates[index];
              return shift === undefined ? item : { ...item, createdAt: new Date(Date.UTC(2025, 0, 1) + (index + shift * 2) * 1000).toISOString() };
            }),
          );
          // As an agent loop hands a store's records over: deep-frozen items, in a new frozen array each build.
          const conversation = storeLike ? perturbed.map(storedItem) : perturbed;
          const input = (history: ItemInput[]) => (storeLike ? Object.freeze([...history]) : history);
          const options: BuildOptions = { tokenizer: wordTokenizer, system: "Be brief.", ...(maxTokens === undefined ? {} : { maxTokens }), ...(order === undefined ? {} : { order }) };
          const reused = createPipeline();
          // The app's own array, appended to in place as an agent loop does.
          const history: ItemInput[] = [];
          let position = 0;
          for (const step of [...steps, conversation.length]) {
            if (position >= conversation.length) break;
            history.push(...conversation.slice(position, position + step));
            position += step;
            const fresh = await outcomeOf(() => createPipeline().build([...history], options));
            if (readReportEveryTime) expect(await outcomeOf(() => reused.build(input(history), options))).toEqual(fresh);
            else {
              // Only the request is read on most turns; the report of the last build must still be whole.
              const result = await reused.build(input(history), options).catch(() => undefined);
              if (result !== undefined) expect(result.request).toEqual((fresh as { value: { request: unknown } }).value?.request);
            }
          }
          expect(await outcomeOf(() => reused.build(input(history), options))).toEqual(await outcomeOf(() => createPipeline().build([...history], options)));
        },
      ),
      { numRuns: 150 },
    );
  });

  test("a history edited in place (not only appended to) builds as a new pipeline would", async () => {
    await fc.assert(
      fc.asyncProperty(adversarialConversations(fc, { maxSteps: 16 }), fc.nat(), fc.nat(), async (conversation, cut, drop) => {
        const options: BuildOptions = { tokenizer: wordTokenizer, system: "Be brief.", maxTokens: 120 };
        const reused = createPipeline();
        await reused.build(conversation, options).catch(() => undefined);
        // Remove one item from the middle and cut the end: what was built before is no longer a prefix.
        const edited = conversation.filter((_, index) => index !== drop % Math.max(1, conversation.length)).slice(0, Math.max(1, conversation.length - (cut % 3)));
        expect(await outcomeOf(() => reused.build(edited, options))).toEqual(await outcomeOf(() => createPipeline().build([...edited], options)));
      }),
      { numRuns: 100 },
    );
  });
});
