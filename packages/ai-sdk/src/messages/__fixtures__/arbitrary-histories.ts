// fast-check arbitraries of AI SDK histories as agents store them, broken the ways real ones break:
// calls cut off by an aborted stream (no result), results whose call is gone, results stored twice,
// repeated call ids, system messages mid-conversation, blank and non-Latin text, odd tool names.
import type { ModelMessage, ToolContent, UIMessage } from "ai";
import fc from "fast-check";

const text = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("Fix the failing test.", "Sure, looking now.", "你好，世界。请总结一下。", "Résumé: 3 files 🚀", '{"status":"ok"}') },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n", "\u200B") },
);
const callId = fc.constantFrom("call_1", "call_2", "call_3", "toolu_01A", "c");
const toolName = fc.oneof({ weight: 6, arbitrary: fc.constantFrom("read_file", "search", "run-tests") }, { weight: 1, arbitrary: fc.constantFrom("github.search", "x".repeat(70)) });
const input = fc.oneof({ weight: 5, arbitrary: fc.constantFrom<unknown>({ path: "a.ts" }, {}, { q: "你好" }) }, { weight: 1, arbitrary: fc.constantFrom<unknown>('{"path":"a.t', [1, 2], null) });
const output = fc.oneof(
  fc.record({ type: fc.constant("text" as const), value: text }),
  fc.record({ type: fc.constant("json" as const), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ type: fc.constant("error-text" as const), value: text }),
  fc.record({ type: fc.constant("error-json" as const), value: fc.jsonValue({ maxDepth: 1 }) }),
  fc.record({ type: fc.constant("execution-denied" as const), reason: fc.option(text, { nil: undefined }) }, { requiredKeys: ["type"] }),
);

const call = fc.record({ type: fc.constant("tool-call" as const), toolCallId: callId, toolName, input });

/** One step of a history: a user turn, an assistant turn with its calls, results (some missing, repeated or stray), or a system message. */
const step: fc.Arbitrary<ModelMessage[]> = fc.oneof(
  { weight: 3, arbitrary: text.map((content): ModelMessage[] => [{ role: "user", content }]) },
  {
    weight: 4,
    arbitrary: fc
      .record({
        reasoning: fc.option(text, { nil: undefined }),
        said: text,
        calls: fc.array(call, { maxLength: 3 }),
        answered: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        twice: fc.boolean(),
        stray: fc.option(callId, { nil: undefined }),
        results: fc.array(output, { minLength: 3, maxLength: 3 }),
      })
      .map(({ reasoning, said, calls, answered, twice, stray, results }): ModelMessage[] => {
        const content = [...(reasoning === undefined ? [] : [{ type: "reasoning" as const, text: reasoning }]), { type: "text" as const, text: said }, ...calls];
        // fc.jsonValue() is typed with undefined inside, which no JSON holds.
        const parts = calls.filter((_, index) => answered[index]).map((part, index) => ({ type: "tool-result", toolCallId: part.toolCallId, toolName: part.toolName, output: results[index]! })) as ToolContent;
        if (stray !== undefined) parts.push({ type: "tool-result", toolCallId: stray, toolName: "search", output: { type: "text", value: "stray" } });
        const messages: ModelMessage[] = [{ role: "assistant", content }];
        if (parts.length > 0) messages.push({ role: "tool", content: parts });
        if (twice && parts.length > 0) messages.push({ role: "tool", content: parts.slice(0, 1) });
        return messages;
      }),
  },
  { weight: 1, arbitrary: text.map((content): ModelMessage[] => [{ role: "system", content }]) },
);

export const modelMessageHistories: fc.Arbitrary<ModelMessage[]> = fc.array(step, { maxLength: 10 }).map((steps) => steps.flat());

const STATES = ["input-streaming", "input-available", "approval-requested", "approval-responded", "output-available", "output-error", "output-denied"] as const;

const toolPart = fc.record({ callId, toolName: fc.constantFrom("read_file", "search"), state: fc.constantFrom(...STATES), approved: fc.boolean(), value: text, dynamic: fc.boolean() }).map(
  ({ callId: id, toolName: name, state, approved, value, dynamic }) =>
    ({
      ...(dynamic ? { type: "dynamic-tool", toolName: name } : { type: `tool-${name}` }),
      toolCallId: id,
      state,
      input: state === "input-streaming" ? undefined : { q: value },
      ...(state === "output-available" ? { output: value } : {}),
      ...(state === "output-error" ? { errorText: value } : {}),
      ...(state.startsWith("approval") || state === "output-denied" ? { approval: { id: `ap_${id}`, ...(state === "approval-requested" ? {} : { approved: state === "output-denied" ? false : approved }) } } : {}),
    }) as unknown as UIMessage["parts"][number],
);

const assistantPart: fc.Arbitrary<UIMessage["parts"][number]> = fc.oneof(
  { weight: 3, arbitrary: text.map((value) => ({ type: "text" as const, text: value })) },
  { weight: 1, arbitrary: text.map((value) => ({ type: "reasoning" as const, text: value })) },
  { weight: 1, arbitrary: fc.constant({ type: "step-start" as const }) },
  { weight: 3, arbitrary: toolPart },
  { weight: 1, arbitrary: fc.constant({ type: "source-url" as const, sourceId: "s", url: "https://example.com" }) },
);

export const uiMessageHistories: fc.Arbitrary<UIMessage[]> = fc
  .array(
    fc.oneof(
      text.map((value): Omit<UIMessage, "id"> => ({ role: "user", parts: [{ type: "text", text: value }] })),
      fc.array(assistantPart, { maxLength: 6 }).map((parts): Omit<UIMessage, "id"> => ({ role: "assistant", parts })),
    ),
    { maxLength: 8 },
  )
  .map((messages) => messages.map((message, index) => ({ id: `m${index}`, ...message }) as UIMessage));
