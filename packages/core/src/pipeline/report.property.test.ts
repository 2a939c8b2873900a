// Property tests for the promises in DESIGN.md that hold for any input: every input item appears in
// the report exactly once, nothing is lost silently, bad input never escapes as a bare TypeError,
// and building is deterministic.
import fc from "fast-check";
import { isBlank } from "../model/is-blank.js";
import { describe, expect, test } from "vitest";
import { CtxpipeError } from "../errors/ctxpipe-error.js";
import type { ItemInput } from "../model/item.js";
import { wordTokenizer } from "../testing/index.js";
import { createPipeline } from "./pipeline.js";
import type { PluginHost } from "./pipeline-hooks.js";

const text = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("", "   ", "\u200B", "hello world", "你好，世界", '{"a":1}'));
// Some dates carry no offset: the order must not depend on the machine's time zone.
const date = fc.option(
  fc
    .tuple(fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2025, 0, 2) }), fc.boolean())
    .map(([time, withOffset]) => (withOffset ? new Date(time).toISOString() : new Date(time).toISOString().slice(0, 19))),
  { nil: undefined },
);
const metadata = fc.record({ includeInContext: fc.option(fc.boolean(), { nil: undefined }) }, { requiredKeys: [] });

/** A turn: a user message, then an assistant that may call tools, whose results may be missing or orphaned. */
const turn = fc.record({
  user: text,
  userDate: date,
  userMeta: metadata,
  reply: text,
  calls: fc.array(fc.record({ answered: fc.boolean(), output: text, isError: fc.boolean() }), { maxLength: 3 }),
  orphanResult: fc.boolean(),
  // Adversarial shapes the repair stage must handle: parallel calls stored one message each,
  // something between the calls and their results, and a result stored twice.
  splitCalls: fc.boolean(),
  between: fc.constantFrom("nothing", "thinking", "user-intervention"),
  duplicateResult: fc.boolean(),
  extra: fc.option(fc.constantFrom("thinking", "todo-update", "task-completed", "system", "error", "summary"), { nil: undefined }),
});

type TurnSpec = typeof turn extends fc.Arbitrary<infer T> ? T : never;

function itemsFrom(turns: ReadonlyArray<TurnSpec>): ItemInput[] {
  const items: ItemInput[] = [];
  turns.forEach((spec, index) => {
    const t = `t${index}`;
    items.push({ id: `${t}-user`, type: "user", text: spec.user, ...(spec.userDate === undefined ? {} : { createdAt: spec.userDate }), metadata: spec.userMeta });
    const toolCalls = spec.calls.map((_, call) => ({ id: `${t}-call${call}`, name: "lookup", arguments: `{"n":${call}}` }));
    if (spec.splitCalls && toolCalls.length > 1) {
      toolCalls.forEach((call, position) => {
        items.push({ id: `${t}-assistant${position === 0 ? "" : position}`, type: "assistant", text: position === 0 ? spec.reply : "", toolCalls: [call] });
      });
    } else {
      items.push({ id: `${t}-assistant`, type: "assistant", text: spec.reply, toolCalls });
    }
    if (spec.between !== "nothing" && toolCalls.length > 0) items.push({ id: `${t}-between`, type: spec.between, text: "wait" } as ItemInput);
    spec.calls.forEach((call, position) => {
      if (call.answered) items.push({ id: `${t}-result${position}`, type: "tool-result", callId: `${t}-call${position}`, output: call.output, isError: call.isError });
    });
    if (spec.duplicateResult && spec.calls[0]?.answered) items.push({ id: `${t}-again`, type: "tool-result", callId: `${t}-call0`, output: "again" });
    if (spec.orphanResult) items.push({ id: `${t}-orphan`, type: "tool-result", callId: `${t}-gone`, output: "late" });
    if (spec.extra === "summary") items.push({ id: `${t}-extra`, type: "summary", text: spec.reply, coveredIds: [] });
    else if (spec.extra !== undefined) items.push({ id: `${t}-extra`, type: spec.extra, text: spec.reply } as ItemInput);
  });
  return items;
}

// The newest user message is real, so every generated conversation has something to send; the
// nothing-to-send case is covered by the validate plugin's own tests.
const conversations = fc.array(turn, { minLength: 1, maxLength: 6 }).map((turns) => {
  const last = turns.at(-1)!;
  return itemsFrom([...turns.slice(0, -1), { ...last, user: "the newest question", userMeta: {} }]);
});

async function build(items: ReadonlyArray<ItemInput>) {
  return createPipeline().build(items, { tokenizer: wordTokenizer, system: "You are terse." });
}

describe("report invariants", () => {
  test("every input item appears in the report exactly once, in input order, and is either included or excluded", async () => {
    await fc.assert(
      fc.asyncProperty(conversations, async (items) => {
        const result = await build(items);
        const ids = items.map((item) => item.id);
        expect(result.report.entries.map((entry) => entry.id)).toEqual(ids);
        expect(result.report.entries.map((entry) => entry.inputIndex)).toEqual(ids.map((_, index) => index));
        expect([...result.includedIds, ...result.excludedIds].sort()).toEqual([...ids].sort());
        for (const entry of result.report.entries) {
          expect(entry.reason.length).toBeGreaterThan(0);
          expect(entry.plugin.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 200 },
    );
  });

  test("report.allEntries holds every entry once, what was sent in request order, what was not in conversation order", async () => {
    const notSent: ReadonlySet<string> = new Set(["dropped", "summarized", "merged"]);
    await fc.assert(
      fc.asyncProperty(conversations, async (items) => {
        const conversation: string[] = [];
        const probe = { name: "ConversationOrder", apply: (host: PluginHost) => host.hooks.compress.tap({ name: "ConversationOrder" }, (_items, context) => void conversation.push(...context.inputItems.map((item) => item.id))) };
        const { report } = await createPipeline({ plugins: [probe] }).build(items, { tokenizer: wordTokenizer, system: "You are terse." });
        expect(report.allEntries).toHaveLength(report.entries.length + report.synthesized.length);
        expect(new Set(report.allEntries)).toEqual(new Set([...report.entries, ...report.synthesized]));
        const sentIndexes = report.allEntries.filter((entry) => !notSent.has(entry.decision) && entry.messageIndex !== undefined).map((entry) => entry.messageIndex!);
        expect(sentIndexes).toEqual([...sentIndexes].sort((left, right) => left - right));
        // Items left out keep their conversation order (an exact copy shares its original's id and place).
        const leftOut = report.allEntries.filter((entry) => entry.inputIndex !== undefined && notSent.has(entry.decision)).map((entry) => conversation.indexOf(entry.id));
        expect(leftOut).toEqual([...leftOut].sort((left, right) => left - right));
      }),
      { numRuns: 200 },
    );
  });

  test("nothing is lost silently: non-blank user and assistant text is sent, or reported as dropped or summarized", async () => {
    await fc.assert(
      fc.asyncProperty(conversations, async (items) => {
        const result = await build(items);
        const sent = JSON.stringify(result.request);
        for (const item of items) {
          if (item.type !== "user" && item.type !== "assistant") continue;
          const itemText = item.text ?? "";
          // Blank means nothing a model could read: whitespace or invisible characters only.
          if (isBlank(itemText)) continue;
          const entry = result.report.entries.find((candidate) => candidate.id === item.id)!;
          if (result.includedIds.includes(item.id)) expect(sent).toContain(JSON.stringify(itemText).slice(1, -1));
          else expect(["dropped", "summarized"]).toContain(entry.decision);
        }
      }),
      { numRuns: 200 },
    );
  });

  test("building is deterministic: the same input and options give byte-identical output, on a new or a reused pipeline", async () => {
    await fc.assert(
      fc.asyncProperty(conversations, async (items) => {
        const pipeline = createPipeline();
        const options = { tokenizer: wordTokenizer, system: "You are terse." };
        // report.cache compares with the pipeline's previous build: the one field that depends on what it built before.
        const outcome = async (built: Promise<{ report: { cache: unknown } }>) => JSON.stringify({ ...(await built), report: { ...(await built).report, cache: undefined } });
        const first = await outcome(pipeline.build(items, options));
        expect(await outcome(pipeline.build(items, options))).toBe(first);
        expect(await outcome(build(structuredClone(items)))).toBe(first);
      }),
      { numRuns: 100 },
    );
  });

  test("every request sent keeps each tool call directly followed by its results", async () => {
    await fc.assert(
      fc.asyncProperty(conversations, async (items) => {
        const { request } = await build(items);
        let expected: Set<string> | undefined;
        for (const message of request.messages) {
          if (message.role === "tool") {
            expect(expected?.has(message.tool_call_id)).toBe(true);
            expected!.delete(message.tool_call_id);
            continue;
          }
          expect(expected === undefined || expected.size === 0).toBe(true);
          expected = message.role === "assistant" && message.tool_calls !== undefined ? new Set(message.tool_calls.map((call) => call.id)) : undefined;
        }
        expect(expected === undefined || expected.size === 0).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe("bad input", () => {
  test("arbitrary build options never escape as anything but a CtxpipeError", async () => {
    const options = fc.oneof(fc.anything(), fc.record({ system: fc.anything(), maxTokens: fc.anything(), reserveOutputTokens: fc.anything(), tools: fc.anything(), tokenizer: fc.anything() }, { requiredKeys: [] }));
    await fc.assert(
      fc.asyncProperty(options, async (value) => {
        try {
          await createPipeline().build([{ id: "u", type: "user", text: "hi" }], value as never);
        } catch (error) {
          expect(CtxpipeError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  test("arbitrary JSON never escapes as anything but a CtxpipeError", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 5 }), async (values) => {
        try {
          await build(values as ItemInput[]);
        } catch (error) {
          expect(CtxpipeError.isInstance(error)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});
