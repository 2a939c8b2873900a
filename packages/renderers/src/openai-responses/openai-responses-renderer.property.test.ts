// The renderer's promises over the conversations that make providers answer HTTP 400, with stored
// Responses turns added to their assistant items (reasoning before calls and messages, calls the item
// no longer has, built-in tool calls, items of other types before an item, messages with their stored
// content): the request breaks no rule of the Responses table, every function_call_output answers an
// earlier function_call, every reasoning item is followed by what it belongs to, a turn's ids go only
// with all of its reasoning (never for a turn stored without any), and no user,
// assistant or tool text disappears without a report entry. Some turns carry a stored id the API would
// refuse (another prefix, too long, other characters, empty), which never reaches the request; some
// messages or calls were stored without an id (a server that gave none), some reasoning without its
// encrypted_content; and half the requests go with store: false. The build never throws for any of them.
import { checkRules, createPipeline, isBlank, type ItemInput } from "@ctxpipe/core";
import { adversarialConversations, assertRendererFollowsRules, checkRendererCarriesContent, wordTokenizer } from "@ctxpipe/core/testing";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { OpenAIResponsesRendererPlugin } from "./openai-responses-renderer-plugin.js";
import { openAIResponsesRules } from "./openai-responses-rules.js";

const model = "gpt-5.1";

/** How one assistant item was stored by a Responses model. */
const storedTurn = fc.record({
  stored: fc.boolean(),
  reasoningBefore: fc.subarray([0, 1, 2, 3]),
  keepReasoning: fc.boolean(),
  messageFirst: fc.boolean(),
  goneCall: fc.boolean(),
  builtInCall: fc.boolean(),
  before: fc.boolean(),
  /** The message reference holds its stored content (as references written since content is kept do). */
  withContent: fc.boolean(),
  /** One stored id of the turn made into one the API refuses: which item's, and how. */
  badId: fc.option(fc.tuple(fc.constantFrom("message", "function_call", "reasoning", "web_search_call", "item_reference"), fc.constantFrom("prefix", "long", "chars", "empty"))),
  /** The entries of these types stored with no id at all. */
  noIds: fc.subarray(["message", "function_call"]),
  /** The first reasoning item stored without its encrypted_content (a store: false answer not asked for it). */
  unencrypted: fc.boolean(),
});

type StoredTurn = typeof storedTurn extends fc.Arbitrary<infer T> ? T : never;

interface Tagged {
  readonly items: ItemInput[];
  /** Per tag, the ids of the reasoning items stored for that turn. */
  readonly reasoningIds: Map<string, string[]>;
  /** The ids the API would refuse, put in the stored turns. */
  readonly badIds: Set<string>;
}

/** An id the API refuses, made from a good one of the same item. */
function refusedId(id: string, how: "prefix" | "long" | "chars" | "empty"): string {
  switch (how) {
    case "prefix":
      // Only messages, calls and reasoning have a prefix the API checks; for other items, too long instead.
      return /^(msg|fc|rs)_/.test(id) ? id.replace(/^[a-z]+_/, "item_") : `${id}_${"x".repeat(64)}`;
    case "long":
      return `${id}_${"0a1b2c3d".repeat(9)}`;
    case "chars":
      return `${id}.v2`;
    case "empty":
      return "";
  }
}

/** Gives one stored entry of the kind `plan.badId` names an id the API refuses; returns that id. */
function spoilOneId(entries: ReadonlyArray<Record<string, unknown>>, plan: StoredTurn): string | undefined {
  if (plan.badId === null) return undefined;
  const [type, how] = plan.badId;
  const entry = entries.find((candidate) => candidate.type === type && typeof candidate.id === "string");
  if (entry === undefined) return undefined;
  entry.id = refusedId(entry.id as string, how);
  return entry.id as string;
}

/** Gives assistant items the Responses turn `plan` describes; ids carry the tag `t<position>`, so the check can find them. */
function withStoredTurns(items: ReadonlyArray<ItemInput>, plans: ReadonlyArray<StoredTurn>): Tagged {
  const reasoningIds = new Map<string, string[]>();
  const badIds = new Set<string>();
  const tagged = items.map((item, position): ItemInput => {
    const plan = plans[position % Math.max(plans.length, 1)];
    if (plan === undefined) return item;
    const tag = `t${position}`;
    const reference: Record<string, unknown> = { type: "item_reference", id: `ref_${tag}` };
    const before = plan.before ? { before: [reference] } : {};
    if (item.type !== "assistant" || !plan.stored) {
      const bad = plan.before ? spoilOneId([reference], plan) : undefined;
      if (bad !== undefined) badIds.add(bad);
      return plan.before ? { ...item, metadata: { ...item.metadata, extra: { ...item.metadata?.extra, openaiResponses: before } } } : item;
    }
    const calls = (item.toolCalls ?? []).map((call, n) => ({ type: "function_call", call_id: call.id, id: `fc_${tag}_${n}` }));
    const content = plan.withContent ? { content: [{ type: "output_text", text: item.text, annotations: [] }] } : {};
    const message = isBlank(item.text ?? "") ? [] : [{ type: "message", id: `msg_${tag}`, status: "completed", ...content }];
    const answers: Array<Record<string, unknown>> = plan.messageFirst ? [...message, ...calls] : [...calls, ...message];
    if (plan.goneCall) answers.push({ type: "function_call", call_id: `gone_${tag}`, id: `fc_${tag}_gone` });
    if (plan.builtInCall) answers.splice(answers.length > 0 ? 1 : 0, 0, { type: "web_search_call", id: `ws_${tag}`, status: "completed", action: { type: "search", query: "zod" } });
    const ids: string[] = [];
    const sequence: Array<Record<string, unknown>> = [];
    answers.forEach((answer, n) => {
      if (plan.reasoningBefore.includes(n)) {
        const id = `rs_${tag}_${n}`;
        ids.push(id);
        sequence.push({ type: "reasoning", id, summary: [{ type: "summary_text", text: `Thought ${n} of ${tag}.` }], encrypted_content: `gAAAAB-${tag}-${n}` });
      }
      sequence.push(answer);
    });
    for (const entry of sequence) if (plan.noIds.includes(entry.type as string)) delete entry.id;
    const firstReasoning = sequence.find((entry) => entry.type === "reasoning");
    if (plan.unencrypted && firstReasoning !== undefined) delete firstReasoning.encrypted_content;
    const bad = spoilOneId(plan.before ? [...sequence, reference] : sequence, plan);
    if (bad !== undefined) badIds.add(bad);
    // A spoiled reasoning id is not one the turn's ids are looked up by.
    reasoningIds.set(tag, ids.map((id) => (sequence.some((entry) => entry.id === id) ? id : bad!)));
    const reasoning = plan.keepReasoning && ids.length > 0 ? { reasoning: ids.map((_, n) => ({ text: `Thought ${n} of ${tag}.` })) } : { reasoning: [] };
    return { ...item, ...reasoning, metadata: { ...item.metadata, extra: { ...item.metadata?.extra, openaiResponses: { sequence, ...before } } } };
  });
  return { items: tagged, reasoningIds, badIds };
}

const conversations = fc.tuple(adversarialConversations(fc), fc.array(storedTurn, { minLength: 1, maxLength: 12 })).map(([items, plans]) => withStoredTurns(items, plans));

/** What breaks the renderer's promises in this request, in words. */
function problemsOf(input: ReadonlyArray<Record<string, unknown>>, reasoningIds: ReadonlyMap<string, ReadonlyArray<string>>, badIds: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  input.forEach((item, index) => {
    if (typeof item.id === "string" && badIds.has(item.id)) problems.push(`input[${index}]: the id ${JSON.stringify(item.id)}, which the API refuses, is sent`);
  });
  const calls = new Set<unknown>();
  input.forEach((item, index) => {
    if (item.type === "function_call") calls.add(item.call_id);
    if (item.type === "function_call_output" && !calls.has(item.call_id)) problems.push(`input[${index}]: an output for ${String(item.call_id)}, with no function_call before it`);
    if (item.type === "reasoning") {
      const next = input[index + 1];
      const follows = next !== undefined && ((next.type === "message" && next.role === "assistant") || next.type === "function_call" || String(next.type).endsWith("_call"));
      if (!follows) problems.push(`input[${index}]: reasoning ${String(item.id)} is followed by ${next === undefined ? "nothing" : String(next.type)}`);
    }
  });
  const sentIds = new Set(input.map((item) => item.id));
  for (const [tag, ids] of reasoningIds) {
    const withId = [...sentIds].some((id) => typeof id === "string" && (id === `msg_${tag}` || id.startsWith(`fc_${tag}_`)));
    const sentReasoning = ids.filter((id) => sentIds.has(id));
    if (sentReasoning.length > 0 && sentReasoning.length < ids.length) problems.push(`turn ${tag}: only some of its reasoning is sent (${sentReasoning.join(", ")} of ${ids.join(", ")})`);
    if (withId && (ids.length === 0 || sentReasoning.length < ids.length)) problems.push(`turn ${tag}: its ids are sent without all of its reasoning`);
  }
  return problems;
}

describe("OpenAIResponsesRendererPlugin, property", () => {
  test("the conversations that make providers answer 400 render to requests that break no Responses rule", async () => {
    await assertRendererFollowsRules(fc, { renderer: "openai-responses", plugins: new OpenAIResponsesRendererPlugin(), rules: openAIResponsesRules, build: { model }, numRuns: 150 });
  });

  test("with stored Responses turns: no rule broken, calls before outputs, reasoning with its follower, ids only with all their reasoning, no refused id sent, no text lost", async () => {
    const stored = createPipeline({ plugins: [new OpenAIResponsesRendererPlugin()] });
    const storeless = createPipeline({ plugins: [new OpenAIResponsesRendererPlugin({ store: false })] });
    await fc.assert(
      fc.asyncProperty(conversations, fc.boolean(), fc.boolean(), async ({ items, reasoningIds, badIds }, composed, store) => {
        const pipeline = store ? stored : storeless;
        let result: Awaited<ReturnType<typeof stored.build<"openai-responses">>>;
        try {
          result = await pipeline.build(items, { renderer: "openai-responses", model, tokenizer: wordTokenizer, ...(composed ? { system: "Be brief." } : {}) });
        } catch (error) {
          // Only a conversation with nothing to send may be refused.
          expect((error as { issues?: Array<{ rule: string }> }).issues?.every((issue) => issue.rule === "NOT_EMPTY")).toBe(true);
          return;
        }
        const { request, report } = result;
        expect(checkRules(openAIResponsesRules, request, { model }).map((violation) => `${violation.rule} at ${violation.path}: ${violation.message}`)).toEqual([]);
        expect(problemsOf(request.input as unknown as Array<Record<string, unknown>>, reasoningIds, badIds)).toEqual([]);

        // Nothing lost silently: entries line up with the input records.
        const sent = JSON.stringify(request);
        items.forEach((item, index) => {
          const text = item.type === "tool-result" ? item.output : item.type === "user" || item.type === "assistant" ? (item.text ?? "") : "";
          if (isBlank(text)) return;
          const entry = report.entries[index]!;
          if (["dropped", "summarized", "merged", "cleared", "truncated"].includes(entry.decision)) {
            expect(entry.reason).not.toBe("");
            return;
          }
          expect(sent, `item ${index} ("${item.id}") is ${entry.decision}`).toContain(JSON.stringify(text.toWellFormed()).slice(1, -1));
        });
      }),
      { numRuns: 300 },
    );
  });

  test("every piece of item content reaches the request, or the report says why", async () => {
    const problems = await checkRendererCarriesContent({ renderer: "openai-responses", plugins: new OpenAIResponsesRendererPlugin(), build: { model } });
    expect(problems).toEqual([]);
  });
});
