import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createPipeline } from "../../pipeline/pipeline.js";
import { adversarialConversations, wordTokenizer } from "../../testing/index.js";
import { checkRules } from "../../validation/check-rules.js";
import type { OpenAIChatRequest } from "./openai-chat-request.js";
import { openAIChatRules } from "./openai-chat-rules.js";
import { OpenAIRequestChecker } from "./openai-request-checker.js";

// Unrepaired histories render to requests that break many rules, each message a frozen object shared
// with the requests rendered before it, as in an agent loop.
const unrepaired = () => createPipeline({ defaults: { repairOrphans: false, validate: false, fitBudget: false } });

describe("OpenAIRequestChecker", () => {
  test("finds what checkRules(openAIChatRules) finds, in its order, for requests that share messages with the last one", async () => {
    await fc.assert(
      fc.asyncProperty(
        adversarialConversations(fc, { maxSteps: 20 }),
        fc.array(fc.record({ append: fc.nat({ max: 5 }), editLast: fc.constantFrom("none", "drop", "replace", "unfrozen") }), { maxLength: 10 }),
        fc.constantFrom(undefined, "gpt-4o", "o1-mini"),
        async (conversation, steps, model) => {
          const pipeline = unrepaired();
          const checker = new OpenAIRequestChecker();
          let length = 0;
          for (const step of steps) {
            length = Math.min(conversation.length, length + step.append);
            const built = await pipeline.build(conversation.slice(0, length), { tokenizer: wordTokenizer, validation: "report", ...(model === undefined ? {} : { model }) }).catch(() => undefined);
            if (built === undefined) continue;
            const messages = [...built.request.messages] as unknown[];
            // What a later repair might do at the end: take a message away, put another there, or send one not frozen.
            if (step.editLast === "drop") messages.pop();
            if (step.editLast === "replace" && messages.length > 0) messages[messages.length - 1] = Object.freeze({ role: "tool", tool_call_id: "call_1", content: "late" });
            if (step.editLast === "unfrozen" && messages.length > 0) messages[0] = { ...(messages[0] as object) };
            const request: OpenAIChatRequest = { ...built.request, messages: messages as OpenAIChatRequest["messages"] };
            expect(checker.check(openAIChatRules, request, { model })).toEqual(checkRules(openAIChatRules, request, { model }));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test("finds what checkRules finds when the window's cut moved: the oldest messages gone, the system prompt new", async () => {
    await fc.assert(
      fc.asyncProperty(
        adversarialConversations(fc, { maxSteps: 60 }),
        fc.boolean(),
        fc.array(fc.record({ append: fc.nat({ max: 6 }), cut: fc.nat({ max: 8 }), notice: fc.boolean(), editLast: fc.constantFrom("none", "drop", "tool") }), { minLength: 2, maxLength: 10 }),
        async (conversation, repaired, steps) => {
          // Repaired, the requests break few rules and the moved stretch is reused; unrepaired, findings keep it from being.
          const pipeline = createPipeline({ defaults: { repairOrphans: repaired, validate: false, fitBudget: false } });
          const checker = new OpenAIRequestChecker();
          let length = 0;
          let cut = 0;
          for (const step of steps) {
            length = Math.min(conversation.length, length + step.append);
            const built = await pipeline.build(conversation.slice(0, length), { tokenizer: wordTokenizer, validation: "report", system: "Be brief." }).catch(() => undefined);
            if (built === undefined) continue;
            cut += step.cut;
            const [system, ...rest] = built.request.messages as unknown[];
            // The window's cut: the oldest messages after the system prompt gone; the prompt with a new notice is a new object.
            const kept = rest.slice(Math.min(cut, rest.length));
            if (step.editLast === "drop") kept.pop();
            if (step.editLast === "tool") kept.push(Object.freeze({ role: "tool", tool_call_id: "call_1", content: "late" }));
            const head = step.notice ? Object.freeze({ ...(system as object), content: `Be brief. ${cut} messages left out.` }) : system;
            const request = { ...built.request, messages: [head, ...kept] } as OpenAIChatRequest;
            expect(checker.check(openAIChatRules, request)).toEqual(checkRules(openAIChatRules, request));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test("finds what checkRules finds over long histories whose window moves either way, some turns breaking rules", () => {
    // A turn: a question, maybe calls answered (some not, some twice, some by a wrong id, some ids used
    // in an earlier turn again), an answer (maybe blank). Each message one frozen object, kept.
    // Most turns are sound, as in a repaired history; now and then one breaks something.
    const rarely = <Value>(usual: Value, odd: fc.Arbitrary<Value>) => fc.oneof({ weight: 60, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: odd });
    const turnArbitrary = fc.record({
      question: rarely("What next?", fc.constant("   ")),
      calls: fc.array(fc.record({ id: fc.oneof({ weight: 12, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.nat({ max: 30 }) }), name: rarely("read", fc.constant("bad name!")) }), { maxLength: 3 }),
      answered: rarely<number[] | undefined>(undefined, fc.array(fc.nat({ max: 4 }), { maxLength: 4 })),
      answer: rarely("Done.", fc.constant("")),
    });
    const stepArbitrary = fc.record({
      turns: fc.nat({ max: 6 }),
      cut: fc.integer({ min: -6, max: 14 }),
      notice: fc.boolean(),
      // A message with calls of its own before the history (none of the loops sends one; any request may).
      lead: rarely(false, fc.constant(true)),
      last: fc.constantFrom("question", "question", "tool", "answer"),
    });
    fc.assert(
      fc.property(fc.array(turnArbitrary, { minLength: 20, maxLength: 60 }), fc.array(stepArbitrary, { minLength: 2, maxLength: 12 }), (turns, steps) => {
        const history: object[] = [];
        let made = 0;
        for (const turn of turns) {
          history.push(Object.freeze({ role: "user", content: turn.question }));
          if (turn.calls.length > 0) {
            // A call's own id, or now and then one an earlier turn used.
            const calls = turn.calls.map((call) => Object.freeze({ id: `call_${call.id === -1 ? 1000 + made++ : call.id}`, type: "function", function: Object.freeze({ name: call.name, arguments: "{}" }) }));
            history.push(Object.freeze({ role: "assistant", content: null, tool_calls: Object.freeze(calls) }));
            const answered = turn.answered ?? calls.map((_, position) => position);
            for (const position of answered) history.push(Object.freeze({ role: "tool", tool_call_id: calls[position]?.id ?? "call_wrong", content: "result" }));
          }
          history.push(Object.freeze({ role: "assistant", content: turn.answer }));
        }
        const checker = new OpenAIRequestChecker();
        let system: object = Object.freeze({ role: "system", content: "Be brief." });
        let length = Math.min(history.length, 40);
        let cut = 0;
        for (const step of steps) {
          length = Math.min(history.length, length + step.turns * 4);
          cut = Math.max(0, Math.min(length, cut + step.cut));
          if (step.notice) system = Object.freeze({ role: "system", content: `Be brief. ${cut} messages left out.` });
          const window = history.slice(cut, length);
          // The last call in the window, which a late tool message may answer.
          const lastCall = (window.findLast((message) => "tool_calls" in message) as { tool_calls?: ReadonlyArray<{ id: string }> } | undefined)?.tool_calls?.at(-1)?.id;
          const last = step.last === "question" ? [Object.freeze({ role: "user", content: "Go on." })] : step.last === "tool" ? [Object.freeze({ role: "tool", tool_call_id: lastCall ?? "call_1", content: "late" })] : [];
          const lead = step.lead ? [Object.freeze({ role: "assistant", content: null, tool_calls: Object.freeze([Object.freeze({ id: lastCall ?? "call_1000", type: "function", function: Object.freeze({ name: "read", arguments: "{}" }) })]) })] : [];
          const request = { model: "gpt-4o", messages: [system, ...lead, ...window, ...last] };
          expect(checker.check(openAIChatRules, request)).toEqual(checkRules(openAIChatRules, request));
        }
      }),
      { numRuns: 300 },
    );
  });

  test("reads only the messages around a stretch moved up or down from the last request", () => {
    let reads = 0;
    const message = (fields: Record<string, unknown>) => {
      const { content, ...rest } = fields;
      return Object.freeze(Object.defineProperty({ ...rest }, "content", { enumerable: true, get: () => (reads++, content) }));
    };
    const turns = Array.from({ length: 40 }, (_, turn) => [
      message({ role: "user", content: `question ${turn}` }),
      message({ role: "assistant", content: null, tool_calls: [Object.freeze({ id: `call_${turn}`, type: "function", function: Object.freeze({ name: "read", arguments: "{}" }) })] }),
      message({ role: "tool", tool_call_id: `call_${turn}`, content: `result ${turn}` }),
      message({ role: "assistant", content: `answer ${turn}` }),
    ]).flat();
    const checker = new OpenAIRequestChecker();
    const first = { messages: [message({ role: "system", content: "Be brief." }), ...turns.slice(0, 120), message({ role: "user", content: "Go on." })] };
    expect(checker.check(openAIChatRules, first)).toEqual([]);
    // The cut moved on by a turn, the notice changed, a turn was added.
    const next = { messages: [message({ role: "system", content: "Be brief. 4 messages left out." }), ...turns.slice(4, 124), message({ role: "user", content: "Go on." })] };
    reads = 0;
    expect(checker.check(openAIChatRules, next)).toEqual([]);
    const kept = reads;
    reads = 0;
    expect(checkRules(openAIChatRules, next)).toEqual([]);
    // A full check reads the 122 messages' content, most of them several times; the kept one the
    // system prompt and the messages at each end.
    expect(reads).toBeGreaterThan(300);
    expect(kept).toBeLessThan(100);
    // The cut moved back (more results cleared, older turns fit again): the stretch moved down.
    const back = { messages: [message({ role: "system", content: "Be brief." }), ...turns.slice(0, 124), message({ role: "user", content: "Go on." })] };
    reads = 0;
    expect(checker.check(openAIChatRules, back)).toEqual(checkRules(openAIChatRules, back));
    expect(reads).toBeGreaterThan(300);
    reads = 0;
    expect(checker.check(openAIChatRules, { messages: [message({ role: "system", content: "Be brief. 8 left out." }), ...turns.slice(8, 124), message({ role: "user", content: "Go on." })] })).toEqual([]);
    reads = 0;
    expect(checker.check(openAIChatRules, back)).toEqual([]);
    expect(reads).toBeLessThan(100);
  });

  test("a stretch moved up is read again from a message that is not frozen: it may have changed in place", () => {
    // All frozen but one, which is changed in place between the two checks.
    const turns: Array<{ role: string; content: string }> = Array.from({ length: 30 }, (_, turn) => [
      { role: "user", content: `question ${turn}` },
      { role: "assistant", content: `answer ${turn}` },
    ]).flat();
    for (const [index, message] of turns.entries()) if (index !== 30) Object.freeze(message);
    const checker = new OpenAIRequestChecker();
    const first = { messages: [{ role: "system", content: "Be brief." }, ...turns.slice(0, 50), { role: "user", content: "Go on." }] };
    expect(checker.check(openAIChatRules, first)).toEqual([]);
    turns[30]!.content = "   ";
    const next = { messages: [{ role: "system", content: "Be brief. 4 left out." }, ...turns.slice(4, 52), { role: "user", content: "Go on." }] };
    const found = checker.check(openAIChatRules, next);
    expect(found).toEqual(checkRules(openAIChatRules, next));
    expect(found.map((violation) => violation.messageIndex)).toContain(27);
  });

  test("a message that is not frozen is read again: it may have changed in place", () => {
    const checker = new OpenAIRequestChecker();
    const messages = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
      { role: "user", content: "and?" },
    ];
    const request = { messages };
    expect(checker.check(openAIChatRules, request)).toEqual([]);
    messages[1]!.content = "   ";
    const again = { messages: [...messages, { role: "user", content: "still there?" }] };
    expect(checker.check(openAIChatRules, again).map((violation) => violation.rule)).toEqual(checkRules(openAIChatRules, again).map((violation) => violation.rule));
    expect(checker.check(openAIChatRules, again).length).toBeGreaterThan(0);
  });

  test("a caller changing its request's messages array after a check does not change what the checker remembers of it", () => {
    const checker = new OpenAIRequestChecker();
    const frozen = (message: object) => Object.freeze(message);
    const messages: object[] = [frozen({ role: "user", content: "hi" }), frozen({ role: "assistant", content: "hello" }), frozen({ role: "user", content: "and?" })];
    const request = { messages };
    expect(checker.check(openAIChatRules, request)).toEqual([]);
    // The same array, changed in place: a frozen message swapped for a blank one, then one more appended.
    messages[1] = frozen({ role: "assistant", content: "   " });
    messages.push(frozen({ role: "user", content: "still there?" }));
    const found = checker.check(openAIChatRules, request);
    expect(found).toEqual(checkRules(openAIChatRules, request));
    expect(found.length).toBeGreaterThan(0);
  });

  test("a request that is not an object with messages is checked in full", () => {
    const checker = new OpenAIRequestChecker();
    for (const request of [null, {}, { messages: "no" }]) expect(checker.check(openAIChatRules, request)).toEqual(checkRules(openAIChatRules, request));
  });
});
