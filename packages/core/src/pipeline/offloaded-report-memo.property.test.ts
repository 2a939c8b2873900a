// report.offloaded is worked out from the last build's answer (OffloadedReportMemo). The promise: on
// every build it is exactly what the from-scratch computation gives (every text put in input order,
// then each item's whole history read), however the texts, the input, the decisions and the request
// changed since the answer it starts from.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { Item, ItemInput } from "../model/item.js";
import { adversarialConversations, wordTokenizer } from "../testing/index.js";
import { contentHandle } from "../text/content-handle.js";
import { inInputOrder } from "./assemble-report.js";
import type { OffloadedText, ReportEvent } from "./build-report.js";
import { type DecisionBatch, type DecisionBatchEntry, recordDecisionBatch } from "./decision-batch.js";
import { type EventRun, eventsIn, type LogSnapshot } from "./event-log.js";
import { OffloadedReportMemo } from "./offloaded-report-memo.js";
import type { PipelinePlugin } from "./pipeline-hooks.js";
import { createPipeline } from "./pipeline.js";
import type { StageLabel } from "./stage.js";
import { withholdOffloaded } from "./withhold-offloaded.js";

const IDS = ["a", "b", "c", "d", "e", "f", "g", "h"];
const DECISIONS = ["cleared", "truncated", "dropped", "summarized", "repaired", "kept", "synthesized", "merged"] as const;
const STAGES: StageLabel[] = ["compress", "filter", "repair-orphans", "insert-system", "render"];
const PLUGINS = ["ClearSome", "sliding-window", "FilterPlugin", "RepairOrphansPlugin", "HardLimitsPlugin", "Redact"];

const eventArbitrary = fc.record({
  decision: fc.constantFrom(...DECISIONS),
  stage: fc.constantFrom(...STAGES),
  plugin: fc.constantFrom(...PLUGINS),
  reason: fc.constantFrom("old", "over budget", "private", "from 100 toward 80 tokens", "from 120 toward 80 tokens"),
}) as fc.Arbitrary<ReportEvent>;

const runArbitrary = fc.record({ ids: fc.array(fc.constantFrom(...IDS), { minLength: 1, maxLength: 4 }), event: eventArbitrary, frozen: fc.boolean() });

/** How one build's decisions, texts, input and request differ from the last build's. */
// Each part changes on about half the builds, so that builds where only one thing changed are common.
const unchanged = <Value>(arbitrary: fc.Arbitrary<Value>, none: Value) => fc.oneof(fc.constant(none), arbitrary);
const changeArbitrary = fc.record({
  // Runs of the last log kept (the same objects, or the same contents in new objects), dropped, or added.
  runs: unchanged(fc.array(fc.record({ keep: fc.constantFrom("same", "copy", "reason", "grow", "shrink", "swap", "drop"), insertBefore: fc.option(runArbitrary, { nil: undefined }) }), { maxLength: 12 }), []),
  appendRuns: unchanged(fc.array(runArbitrary, { maxLength: 3 }), []),
  policy: fc.option(fc.array(runArbitrary, { maxLength: 3 }), { nil: undefined, freq: 2 }),
  newPolicy: fc.boolean(),
  texts: unchanged(fc.array(fc.record({ keep: fc.constantFrom("same", "copy", "drop") }), { maxLength: 12 }), []),
  // Texts of input items, of items the input gets later (f, g, h) and of items it never has.
  addTexts: unchanged(fc.array(fc.record({ id: fc.constantFrom(...IDS, "f", "g", "added", "other"), body: fc.constantFrom("one", "two", "three", "four") }), { maxLength: 3 }), []),
  shuffleTexts: unchanged(fc.boolean(), false),
  input: fc.constantFrom("same", "append", "append", "edit", "cut", "cut", "reorder", "new-objects"),
  named: fc.array(fc.constantFrom("one", "two", "three", "four"), { maxLength: 2 }),
  read: fc.boolean(),
});

function item(id: string, text: string): Item {
  return { id, type: "user", role: "user", text, metadata: {} } as unknown as Item;
}

function byId(snapshot: LogSnapshot): Map<string, ReportEvent[]> {
  return eventsIn(snapshot, new Set(snapshot.runs.slice(0, snapshot.length).flatMap((run) => run.ids)));
}

describe("report.offloaded from the last build's answer", () => {
  test("equals the from-scratch answer over any sequence of changed decisions, texts, inputs and requests", () => {
    fc.assert(
      fc.property(fc.array(runArbitrary, { maxLength: 10 }), fc.array(changeArbitrary, { minLength: 1, maxLength: 10 }), (firstRuns, changes) => {
        const memo = new OffloadedReportMemo();
        const toRun = (run: { ids: string[]; event: ReportEvent; frozen: boolean }): EventRun => ({ ids: run.frozen ? Object.freeze([...run.ids]) : [...run.ids], event: { ...run.event } });
        let runs: EventRun[] = firstRuns.map(toRun);
        let policyRuns: EventRun[] = [];
        let texts: OffloadedText[] = [];
        let input: Item[] = IDS.slice(0, 5).map((id) => item(id, id));
        let serial = 0;
        for (const change of changes) {
          // The log: last build's runs, some as they were, some copied or with another reason, some gone, some added.
          const next: EventRun[] = [];
          runs.forEach((run, index) => {
            const step = change.runs[index] ?? { keep: "same" as const, insertBefore: undefined };
            if (step.insertBefore !== undefined) next.push(toRun(step.insertBefore));
            if (step.keep === "same") next.push(run);
            else if (step.keep === "copy") next.push({ ids: [...run.ids], event: { ...run.event } });
            else if (step.keep === "reason") next.push({ ids: run.ids, event: { ...run.event, reason: `${run.event.reason}!` } });
            // The same decision about other ids: one more (a window dropping a little more), one fewer, or two in another order.
            else if (step.keep === "grow") next.push({ ids: [...run.ids, IDS[(index * 5) % IDS.length]!], event: run.event });
            else if (step.keep === "shrink") next.push({ ids: run.ids.slice(1), event: run.event });
            else if (step.keep === "swap") next.push({ ids: [...run.ids].reverse(), event: { ...run.event } });
          });
          next.push(...change.appendRuns.map(toRun));
          runs = next;
          if (change.policy !== undefined) policyRuns = change.newPolicy ? change.policy.map(toRun) : [...policyRuns.map((run) => ({ ...run })), ...change.policy.map(toRun)];
          // The texts: each handle once, some kept as the same objects or copies, some gone, some new.
          const kept: OffloadedText[] = [];
          texts.forEach((text, index) => {
            const keep = change.texts[index]?.keep ?? "same";
            if (keep === "same") kept.push(text);
            else if (keep === "copy") kept.push({ ...text });
          });
          for (const added of change.addTexts) {
            const body = `${added.body} ${serial++ % 3}`;
            kept.push({ handle: contentHandle(`${added.id}:${body}`), itemId: added.id, text: body, chars: body.length });
          }
          if (change.shuffleTexts) kept.reverse();
          const map = new Map<string, OffloadedText>();
          for (const text of kept) if (!map.has(text.handle)) map.set(text.handle, text);
          texts = [...map.values()];
          // The input: each id once, grown, edited, cut or put in another order.
          if (change.input === "append") input = [...input, ...IDS.filter((id) => !input.some((known) => known.id === id)).slice(0, 1).map((id) => item(id, id))];
          else if (change.input === "edit" && input.length > 1) input = input.map((known, index) => (index === 1 ? item(known.id, `${known.id}!`) : known));
          else if (change.input === "cut") input = input.slice(0, Math.max(1, input.length - 2));
          else if (change.input === "reorder") input = [...input].reverse();
          else if (change.input === "new-objects") input = input.map((known) => item(known.id, (known as { text: string }).text));
          if (!change.read) continue;

          const named = new Set(change.named.map((body) => texts.find((text) => text.text.startsWith(body))?.handle));
          const log: LogSnapshot = { runs, length: runs.length };
          const policy: LogSnapshot = { runs: policyRuns, length: policyRuns.length };
          const expected = withholdOffloaded(inInputOrder(map, input), byId(log), byId(policy), (handle) => named.has(handle));
          const answer = memo.answer({ texts: map, inputItems: input, log, policy, namedInRequest: (handle) => named.has(handle) });
          expect(answer).toEqual({ offloaded: [...expected.offloaded], warnings: expected.warnings });
          // The build's own text objects, not last build's copies.
          for (let index = 0; index < answer.offloaded.length; index++) expect(answer.offloaded[index]).toBe(expected.offloaded[index]);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe("report.offloaded from the last build's answer, on a build where only the input changed", () => {
  const textFor = (id: string): OffloadedText => ({ handle: contentHandle(`text of ${id}`), itemId: id, text: `text of ${id}`, chars: 12 + id.length });
  // The same item objects in both builds, as a store hands back.
  const items = new Map(IDS.map((id) => [id, item(id, id)] as const));
  const inputOf = (ids: string[]) => ids.map((id) => items.get(id)!);
  test.for<[string, string[], string[], string[]]>([
    // A text of an item the input did not have yet, recorded after one of an item it never has: once the input has it, it comes first.
    ["an item the input gets later", ["a", "b"], ["a", "b", "f"], ["added", "f", "a"]],
    ["an item cut from the input", ["a", "b", "c"], ["a"], ["added", "c", "b", "a"]],
    ["the same items in another order", ["a", "b", "c"], ["c", "b", "a"], ["a", "b", "c"]],
  ])("%s", ([, before, after, textIds]) => {
    const texts = new Map(textIds.map((id) => [textFor(id).handle, textFor(id)] as const));
    const log: LogSnapshot = { runs: [], length: 0 };
    const memo = new OffloadedReportMemo();
    const answer = (input: Item[]) => memo.answer({ texts, inputItems: input, log, policy: undefined, namedInRequest: () => false });
    answer(inputOf(before));
    const input = inputOf(after);
    expect(answer(input).offloaded.map((text) => text.itemId)).toEqual(inInputOrder(texts, input).map((text) => text.itemId));
  });
});

/**
 * A compress tap that clears the text of the user messages and tool results `pick` names, keeping the
 * original offloaded and naming its handle in the placeholder; by one batch (the same object while
 * the same items are cleared, as the compression chain does) or decision by decision.
 */
function clearSome(pick: (id: string) => boolean, byBatch: boolean): PipelinePlugin {
  let last: { key: string; batch: DecisionBatch } | undefined;
  return {
    name: "ClearSome",
    apply(pipeline) {
      pipeline.hooks.compress.tap({ name: "ClearSome" }, (items, context) => {
        const entries: DecisionBatchEntry[] = [];
        const out = items.map((item): Item => {
          const text = item.type === "user" ? item.text : item.type === "tool-result" ? item.output : undefined;
          if (text === undefined || text.length === 0 || !pick(item.id)) return item;
          const handle = contentHandle(text);
          if (!byBatch) {
            context.report.offload(item, text);
            context.report.clear(item, `cleared ${text.length} characters`);
          } else entries.push({ id: item.id, reason: `cleared ${text.length} characters`, offload: { handle, text } });
          const placeholder = `[cleared: ${handle}]`;
          return item.type === "user" ? { ...item, text: placeholder } : ({ ...item, output: placeholder } as Item);
        });
        if (byBatch && entries.length > 0) {
          const key = JSON.stringify(entries.map((entry) => [entry.id, entry.offload!.handle]));
          if (last?.key !== key) last = { key, batch: { decision: "cleared", entries } };
          recordDecisionBatch(context, "ClearSome", last.batch);
        }
        return out;
      });
    },
  };
}

/** A filter-stage redaction of the user messages and tool results that hold an "e" (a placeholder holds none). */
const redact: PipelinePlugin = {
  name: "Redact",
  apply(pipeline) {
    pipeline.hooks.filter.tap({ name: "Redact" }, (items, context) =>
      items.map((item): Item => {
        if (item.type === "user" && item.text.includes("e")) {
          context.report.repair(item, "redacted");
          return { ...item, text: item.text.replaceAll("e", "*") };
        }
        if (item.type === "tool-result" && item.output.includes("e")) {
          context.report.repair(item, "redacted");
          return { ...item, output: item.output.replaceAll("e", "*") } as Item;
        }
        return item;
      }),
    );
  },
};

describe("a reused pipeline's report.offloaded", () => {
  test("is a new pipeline's, as the history grows, is edited and the budget's cut moves", async () => {
    await fc.assert(
      fc.asyncProperty(
        adversarialConversations(fc, { maxSteps: 20 }),
        fc.array(fc.record({ grow: fc.integer({ min: 1, max: 4 }), edit: fc.boolean(), maxTokens: fc.option(fc.integer({ min: 40, max: 400 }), { nil: undefined }) }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        fc.boolean(),
        async (conversation, steps, every, byBatch, redacting) => {
          // Items are cleared by their id, so an item cleared once is cleared on every build.
          const pick = (id: string) => [...id].reduce((sum, char) => sum + char.charCodeAt(0), 0) % every === 0;
          const plugins = () => [clearSome(pick, byBatch), ...(redacting ? [redact] : [])];
          const reused = createPipeline({ plugins: plugins() });
          let history: ItemInput[] = [];
          let position = 0;
          for (const step of steps) {
            history = [...history, ...conversation.slice(position, position + step.grow)];
            position += step.grow;
            // An edit: one item gone from the middle, so the input is no longer last build's with more after it.
            if (step.edit && history.length > 2) history = history.filter((_, index) => index !== Math.floor(history.length / 2));
            const options = { tokenizer: wordTokenizer, system: "Be brief.", ...(step.maxTokens === undefined ? {} : { maxTokens: step.maxTokens }) };
            const fresh = await offloadedOf(() => createPipeline({ plugins: plugins() }).build([...history], options));
            expect(await offloadedOf(() => reused.build(history, options))).toEqual(fresh);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

async function offloadedOf(build: () => Promise<{ report: { offloaded: ReadonlyArray<OffloadedText>; warnings: ReadonlyArray<string> } }>): Promise<unknown> {
  try {
    const { report } = await build();
    return { offloaded: report.offloaded, warnings: report.warnings };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}
