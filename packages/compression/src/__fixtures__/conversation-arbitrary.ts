// Realistic agent conversations for the compression property tests: user turns (some blank or
// excluded), assistants making up to three parallel tool calls answered right away, long tool
// results, Chinese text, persisted errors, priorities. Unlike core's adversarialConversations the
// current loop is self-contained (its calls are answered inside it), so what the newest turn costs on
// its own can be measured by building just that tail.
import type { ItemInput } from "@ctxpipe/core";
import fc from "fast-check";

const WORDS = ["the", "test", "fails", "because", "parser", "returns", "null", "file", "line", "42", "config", "build", "ok", "error", "cache", "token", "budget", "用户", "文件", "错误"];

const sentence = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("Fix the failing test in parser.ts.", "Sure, looking at it now.", "What does the build log say?", "Run the tests again please.", "Done: 3 files changed.") },
  { weight: 2, arbitrary: fc.constantFrom("你好，请帮我总结一下这个文件。", "测试失败了，错误在第 42 行。", "好的，我来看看。") },
  { weight: 2, arbitrary: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }).map((words) => words.join(" ")) },
);
const blank = fc.constantFrom("", "  ", "\n");
const shortOutput = fc.oneof(fc.constantFrom('{"status":"ok"}', "3 tests passed", "文件已保存。"), sentence);
const longOutput = fc.array(fc.constantFrom(...WORDS), { minLength: 80, maxLength: 400 }).map((words) => words.join(" "));
const TOOLS = ["read_file", "search", "run_tests", "memory"] as const;

const userSpec = fc.record({
  kind: fc.constantFrom("real", "real", "real", "real", "blank", "excluded"),
  text: sentence,
  blankText: blank,
  priority: fc.option(fc.integer({ min: -2, max: 3 }), { nil: undefined }),
});

const stepSpec = fc.record({
  text: fc.oneof(sentence, fc.constant("")),
  calls: fc.array(
    fc.record({
      tool: fc.constantFrom(...TOOLS),
      long: fc.boolean(),
      short: shortOutput,
      longText: longOutput,
      isError: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
});

const turnSpec = fc.record({
  user: userSpec,
  steps: fc.array(stepSpec, { maxLength: 3 }),
  error: fc.boolean(),
  reply: fc.option(sentence, { nil: undefined }),
});

type TurnSpec = typeof turnSpec extends fc.Arbitrary<infer Spec> ? Spec : never;

export interface Conversation {
  readonly items: ItemInput[];
  /** Position of the newest user message that is neither blank nor excluded: the current loop starts there. */
  readonly newestUser: number;
}

function turnItems(spec: TurnSpec, index: number, forceReal: boolean): ItemInput[] {
  const t = `t${index}`;
  const items: ItemInput[] = [];
  const kind = forceReal ? "real" : spec.user.kind;
  items.push({
    id: `${t}-user`,
    type: "user",
    text: kind === "blank" ? spec.user.blankText : spec.user.text,
    metadata: { ...(kind === "excluded" ? { includeInContext: false } : {}), ...(spec.user.priority === undefined ? {} : { priority: spec.user.priority }) },
  });
  spec.steps.forEach((step, stepIndex) => {
    const calls = step.calls.map((call, callIndex) => ({ ...call, id: `call_${index}_${stepIndex}_${callIndex}`, resultId: `${t}-r${stepIndex}_${callIndex}` }));
    // An assistant with neither text nor calls would only be filtered; give it something to say.
    const text = calls.length === 0 && step.text === "" ? "Thinking about it." : step.text;
    items.push({ id: `${t}-a${stepIndex}`, type: "assistant", text, toolCalls: calls.map((call) => ({ id: call.id, name: call.tool, arguments: `{"step":${stepIndex}}` })) });
    for (const call of calls) {
      items.push({ id: call.resultId, type: "tool-result", callId: call.id, toolName: call.tool, output: call.long ? call.longText : call.short, isError: call.isError });
    }
  });
  if (spec.error) items.push({ id: `${t}-error`, type: "error", text: "LLM_TIMEOUT: no answer within 60 s" });
  if (spec.reply !== undefined) items.push({ id: `${t}-reply`, type: "assistant", text: spec.reply });
  return items;
}

/** 1 to maxTurns turns; the last one is opened by a real user message, sometimes followed by a blank or excluded one. */
export function agentConversations(options: { maxTurns?: number; minTurns?: number; firstTurnReal?: boolean } = {}): fc.Arbitrary<Conversation> {
  return fc
    .record({
      turns: fc.array(turnSpec, { minLength: options.minTurns ?? 1, maxLength: options.maxTurns ?? 8 }),
      trailing: fc.option(fc.constantFrom("blank" as const, "excluded" as const), { nil: undefined, freq: 5 }),
    })
    .map(({ turns, trailing }) => {
      const items: ItemInput[] = [];
      let newestUser = 0;
      turns.forEach((spec, index) => {
        const last = index === turns.length - 1;
        if (last) newestUser = items.length;
        items.push(...turnItems(spec, index, last || (index === 0 && options.firstTurnReal === true)));
      });
      if (trailing === "blank") items.push({ id: "trailing-user", type: "user", text: " " });
      if (trailing === "excluded") items.push({ id: "trailing-user", type: "user", text: "ignore this", metadata: { includeInContext: false } });
      return { items, newestUser };
    });
}
