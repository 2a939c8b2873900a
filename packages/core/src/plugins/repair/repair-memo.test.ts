// The repair-orphans stage keeps the repairs of older turns between builds (repair-memo.ts). The
// promise: a pipeline that repaired before gives exactly the request and report a new one gives,
// however the history grew, with call ids reused across turns, results arriving turns late, orphans,
// summaries that cover calls an earlier stage left out, and copies. Validation only reports here, so
// a wrong reuse cannot hide behind the second repair pass that a failed check would start.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { ItemInput } from "../../model/item.js";
import type { BuildOptions } from "../../pipeline/build-options.js";
import type { PipelinePlugin } from "../../pipeline/pipeline-hooks.js";
import { createPipeline } from "../../pipeline/pipeline.js";
import { emptyCallIds } from "../../testing/adversarial/empty-call-ids.js";
import { adversarialConversations, wordTokenizer } from "../../testing/index.js";

/** Leaves out every item whose id ends in "3" or "7", as a compress plugin might (the calls of a summary). */
const leaveSomeOut: PipelinePlugin = {
  name: "LeaveSomeOut",
  apply(pipeline) {
    pipeline.hooks.compress.tap({ name: "LeaveSomeOut" }, (items, context) => {
      const kept = items.filter((item) => !/[37]$/.test(item.id));
      for (const item of items) if (!kept.includes(item)) context.report.drop(item, "left out for the test");
      return kept;
    });
  },
};

/**
 * Summaries cover items before them (the ones LeaveSomeOut leaves out, and a range), so explanations
 * name them. Most call ids are made unique per step, so that older turns can be kept; the foreign
 * ones are still shared between turns, and every other step spells one of them differently, so that
 * two different ids are rewritten to the same portable one.
 */
function withCoverage(items: ItemInput[]): ItemInput[] {
  const respell = (id: string, owner: string) => {
    const step = Number(/^s(\d+)/.exec(owner)?.[1] ?? 0);
    if (/^(call_\d|toolu_01A)$/.test(id)) return `${id}_${step}`;
    return id === "call id with spaces" && step % 2 === 1 ? "call.id with spaces" : id;
  };
  return items.map((input, index) => {
    const item = input as ItemInput & { id: string; type?: string; callId?: string; toolCalls?: Array<{ id: string }> };
    if (item.type === "tool-result" && item.callId !== undefined) return { ...item, callId: respell(item.callId, item.id) } as ItemInput;
    if (item.type === "assistant" && item.toolCalls !== undefined) return { ...item, toolCalls: item.toolCalls.map((call) => ({ ...call, id: respell(call.id, item.id) })) } as ItemInput;
    if (item.type !== "summary" || index === 0) return item;
    const earlier = items.slice(0, index).map((before) => (before as { id: string }).id);
    const fromId = earlier[Math.floor(earlier.length / 2)]!;
    return { ...item, coveredIds: earlier.filter((id) => /[37]$/.test(id)), fromId, toId: earlier.at(-1)! } as ItemInput;
  });
}

async function outcome(build: () => Promise<{ request: unknown; report: { cache: unknown } }>): Promise<unknown> {
  try {
    const { request, report } = await build();
    const { cache: _cache, ...rest } = report;
    return JSON.parse(JSON.stringify({ request, report: rest }));
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}

describe("repairs kept between builds", () => {
  test.each([
    ["every item reaches the stage", false, false],
    ["an earlier stage leaves items out", true, false],
    ["calls and results are stored without ids", false, true],
    ["calls and results are stored without ids, and an earlier stage leaves items out", true, true],
  ])("a pipeline that repaired before gives what a new one gives (%s)", async (_name, leaveOut, withoutIds) => {
    const pipelineOf = () => createPipeline({ defaults: { fitBudget: false }, plugins: leaveOut ? [leaveSomeOut] : [] });
    const options: BuildOptions = { tokenizer: wordTokenizer, system: "Be brief.", validation: "report" };
    const blank = withoutIds ? emptyCallIds(fc) : fc.constant((items: ItemInput[]) => items);
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(adversarialConversations(fc, { maxSteps: 30 }), blank).map(([conversation, perturb]) => perturb(withCoverage(conversation))),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 16 }),
        async (conversation, steps) => {
          const reused = pipelineOf();
          const history: ItemInput[] = [];
          let position = 0;
          for (const step of [...steps, conversation.length]) {
            if (position >= conversation.length) break;
            history.push(...conversation.slice(position, position + step));
            position += step;
            expect(await outcome(() => reused.build(history, options))).toEqual(await outcome(() => pipelineOf().build([...history], options)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  /** Builds the history turn by turn with one pipeline and checks each build against a new pipeline. */
  async function turnByTurn(turns: ItemInput[][], plugins: PipelinePlugin[] = []) {
    const pipelineOf = () => createPipeline({ defaults: { fitBudget: false }, plugins });
    const options: BuildOptions = { tokenizer: wordTokenizer, validation: "report" };
    const reused = pipelineOf();
    const history: ItemInput[] = [];
    let last: { request: { messages: ReadonlyArray<Record<string, unknown>> }; report: { entries: ReadonlyArray<{ id: string; reason: string }> } } | undefined;
    for (const turn of turns) {
      history.push(...turn);
      const built = await reused.build(history, options);
      expect(await outcome(async () => built)).toEqual(await outcome(() => pipelineOf().build([...history], options)));
      last = built as never;
    }
    return last!;
  }

  const user = (id: string, text = "go on"): ItemInput => ({ id, type: "user", text });
  const calls = (id: string, callId: string): ItemInput => ({ id, type: "assistant", text: "", toolCalls: [{ id: callId, name: "read_file", arguments: "{}" }] });
  const result = (id: string, callId: string): ItemInput => ({ id, type: "tool-result", callId, output: "ok" });

  test("a call id of a newer turn is not rewritten to the portable id an older turn's call was given", async () => {
    const built = await turnByTurn([
      [user("u1"), calls("a1", "call id with spaces"), result("r1", "call id with spaces")],
      [user("u2"), calls("a2", "call.id with spaces"), result("r2", "call.id with spaces")],
      [user("u3")],
    ]);
    const ids = built.request.messages.flatMap((message) => ((message.tool_calls as Array<{ id: string }> | undefined) ?? []).map((call) => call.id));
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });

  test("calls without an id pair by position turn by turn, and no turn's given id takes another's", async () => {
    const built = await turnByTurn([
      [user("u1"), calls("a1", ""), result("r1", "")],
      [user("u2"), calls("a2", ""), result("r2", ""), result("extra", "")],
      [user("u3"), calls("a1_1", "a1_1"), result("r3", "a1_1")],
      [user("u4")],
    ]);
    const sent = built.request.messages.map((message) => (message.tool_calls as Array<{ id: string }> | undefined)?.map((call) => call.id).join() ?? message.tool_call_id ?? message.role);
    expect(sent).toEqual(["user", expect.stringMatching(/^a1_1_[a-z0-9]{7}$/), sent[1], "user", "a2_1", "a2_1", "user", "a1_1", "a1_1", "user"]);
    expect(built.report.entries.find((entry) => entry.id === "extra")?.reason).toBe("it has no call id, and no call without an id before it in its turn is left to pair with by position");
  });

  test("a result without an id stored after the next user message stays an orphan, however the history was built", async () => {
    const twoCalls: ItemInput = { id: "a1", type: "assistant", text: "", toolCalls: [{ id: "", name: "read_file", arguments: "{}" }, { id: "", name: "grep", arguments: "{}" }] };
    const built = await turnByTurn([[user("u1"), twoCalls, result("r1", "")], [user("u2"), result("r2", "")], [user("u3")]]);
    expect(built.report.entries.find((entry) => entry.id === "r2")).toMatchObject({ decision: "dropped", reason: expect.stringContaining("it has no call id") });
  });

  test("a result that arrives turns after its call is paired with it", async () => {
    const built = await turnByTurn([[user("u1"), calls("a1", "call_1")], [user("u2"), result("r1", "call_1")], [user("u3")]]);
    const roles = built.request.messages.map((message) => message.role);
    expect(roles).toEqual(["user", "assistant", "tool", "user", "user"]);
  });

  test("a summary appended later changes how an older turn's orphan result is explained", async () => {
    const built = await turnByTurn(
      [
        [user("u1"), calls("a3", "call_1"), result("r1", "call_1")],
        [user("u2")],
        [{ id: "sum", type: "summary", text: "Read a file.", coveredIds: ["a3"] } as ItemInput, user("u4")],
      ],
      [leaveSomeOut],
    );
    expect(built.report.entries.find((entry) => entry.id === "r1")?.reason).toContain('covered by summary "sum"');
  });
});
