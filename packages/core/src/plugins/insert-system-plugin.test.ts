import { describe, expect, test } from "vitest";
import { isDeepFrozen } from "../model/is-deep-frozen.js";
import type { ItemInput } from "../model/item.js";
import type { Items } from "../pipeline/pipeline-hooks.js";
import type { BuildOptions } from "../pipeline/build-options.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { buildWith, wordTokenizer } from "../testing/index.js";
import { InsertSystemPlugin, type StoredSystemMessages } from "./insert-system-plugin.js";

const chat: ItemInput[] = [{ id: "u", type: "user", text: "hello" }];

describe("InsertSystemPlugin", () => {
  test("merges the parts into one leading system message, lowest order first", async () => {
    const result = await buildWith([], chat, { system: [{ id: "rules", text: "Rules.", order: 10 }, "Header.", { id: "data", text: "Data.", order: 20 }] });
    expect(result.request.messages[0]).toEqual({ role: "system", content: "Header.\n\nRules.\n\nData." });
    expect(result.metadata).toMatchObject({ systemPromptIncluded: true, systemPromptLength: "Header.\n\nRules.\n\nData.".length });
    expect(result.report.synthesized[0]).toMatchObject({ id: "ctxpipe:system-prompt", decision: "synthesized", stage: "insert-system", plugin: "InsertSystemPlugin", reason: "system prompt merged from 3 part(s): system-1, rules, data" });
  });

  test("the report gives each part's own token cost, in prompt order", async () => {
    const result = await buildWith([], chat, { system: [{ id: "rules", text: "Two rules.", order: 10 }, "One header line.", { id: "empty", text: "" }] });
    expect(result.report.systemParts).toEqual([
      { id: "system-1", text: "One header line.", order: 0, addedBy: "build options", tokens: 4 },
      { id: "rules", text: "Two rules.", order: 10, addedBy: "build options", tokens: 3 },
    ]);
    const left = await buildWith([], chat, { system: "Be brief.", includeSystemPrompt: false });
    expect(left.report.systemParts).toEqual([]);
  });

  test("plugins tapping earlier in the stage add parts that land in the same message", async () => {
    const persona = {
      name: "Persona",
      apply: (host: Parameters<InsertSystemPlugin["apply"]>[0]) =>
        host.hooks.insertSystem.tap({ name: "Persona" }, (_items, context) => void context.system.add({ id: "persona", text: "You are Ada.", order: -1 })),
    };
    const result = await buildWith([persona], chat, { system: "Be brief." });
    expect(result.request.messages[0]).toEqual({ role: "system", content: "You are Ada.\n\nBe brief." });
  });

  test("includeSystemPrompt: false leaves it out (seed 000)", async () => {
    const result = await buildWith([], chat, { system: "Be brief.", includeSystemPrompt: false });
    expect(result.request.messages).toEqual([{ role: "user", content: "hello" }]);
    expect(result.metadata).toMatchObject({ systemPromptIncluded: false, systemPromptLength: 0 });
  });

  test("the separator is configurable, as seed 000's `---` layout needs", async () => {
    const result = await buildWith([new InsertSystemPlugin({ separator: "\n\n---\n\n" })], chat, { system: ["# Mode: CHAT", "Rules."] });
    expect(result.request.messages[0]).toEqual({ role: "system", content: "# Mode: CHAT\n\n---\n\nRules." });
  });

  test("the prompt's item is frozen through and handed on as it is, the same object build after build while the prompt is the same", async () => {
    const seen: Items[] = [];
    const pipeline = createPipeline({
      plugins: [{ name: "reader", apply: ({ hooks }) => hooks.validate.tap({ name: "reader" }, (items) => void seen.push(items)) }],
    });
    const items: ItemInput[] = [...chat];
    for (const turn of [1, 2, 3]) {
      items.push({ id: `a${turn}`, type: "assistant", text: `answer ${turn}` }, { id: `u${turn}`, type: "user", text: `question ${turn}` });
      await pipeline.build(items, { system: "Be brief." });
    }
    await pipeline.build(items, { system: "Be briefer." });
    const prompts = seen.map((list) => list[0]!);
    expect(prompts.map((item) => item.id)).toEqual(["ctxpipe:system-prompt", "ctxpipe:system-prompt", "ctxpipe:system-prompt", "ctxpipe:system-prompt"]);
    expect(isDeepFrozen(prompts[0])).toBe(true);
    // Not a parsed copy made again by the check after the tap: the plugin's own item.
    expect(prompts[1]).toBe(prompts[0]);
    expect(prompts[2]).toBe(prompts[0]);
    expect(prompts[3]).not.toBe(prompts[0]);
    expect(prompts[3]).toMatchObject({ type: "system", text: "Be briefer." });
    expect(isDeepFrozen(prompts[3])).toBe(true);
  });

  test("no parts, no system message", async () => {
    const result = await buildWith([], chat);
    expect(result.request.messages).toEqual([{ role: "user", content: "hello" }]);
  });
});

const SENT_AS_PROMPT = "sent as the system prompt: this build composes none, so the stored system messages are the prompt";
const SENT_AFTER_PARTS = 'sent in the system prompt, after the composed parts (storedSystemMessages: "prompt")';
const REPLACED = "stored system message: this build composes its own system prompt, which replaces the stored ones";
const NOT_INCLUDED = "stored system message: includeSystemPrompt is false, so no system prompt is sent";
const DROPPED = 'stored system message: storedSystemMessages is "drop"';
const BLANK = "stored system message: its text is blank, nothing to send";

/** A stored prompt, a turn, a mid-conversation instruction, and the newest question. */
const stored: ItemInput[] = [
  { id: "s0", type: "system", text: "You are terse." },
  { id: "u1", type: "user", text: "Hi." },
  { id: "a1", type: "assistant", text: "Hello." },
  { id: "s1", type: "system", text: "From now on answer in French." },
  { id: "u2", type: "user", text: "How are you?" },
];
const turns = [
  { role: "user", content: "Hi." },
  { role: "assistant", content: "Hello." },
];
const french = { role: "system", content: "From now on answer in French." };
const newest = { role: "user", content: "How are you?" };

describe("InsertSystemPlugin: stored system messages", () => {
  test.for<{ case: string; policy?: StoredSystemMessages; options: BuildOptions<"openai">; messages: unknown[]; decisions: Array<[string, string, string]>; metadata: [boolean, number] }>([
    {
      case: "auto, nothing composed: the leading one is the prompt, the later one stays where it was",
      options: {},
      messages: [{ role: "system", content: "You are terse." }, ...turns, french, newest],
      decisions: [
        ["s0", "merged", SENT_AS_PROMPT],
        ["s1", "kept", "sent in message 3"],
      ],
      metadata: [true, "You are terse.".length],
    },
    {
      case: "auto, a prompt composed: it replaces every stored one",
      options: { system: "Be brief." },
      messages: [{ role: "system", content: "Be brief." }, ...turns, newest],
      decisions: [
        ["s0", "dropped", REPLACED],
        ["s1", "dropped", REPLACED],
      ],
      metadata: [true, "Be brief.".length],
    },
    {
      case: "auto, includeSystemPrompt false: no system text at all",
      options: { system: "Be brief.", includeSystemPrompt: false },
      messages: [...turns, newest],
      decisions: [
        ["s0", "dropped", NOT_INCLUDED],
        ["s1", "dropped", NOT_INCLUDED],
      ],
      metadata: [false, 0],
    },
    {
      case: "prompt, with a composed prompt: the leading one follows the composed parts",
      policy: "prompt",
      options: { system: "Be brief." },
      messages: [{ role: "system", content: "Be brief.\n\nYou are terse." }, ...turns, french, newest],
      decisions: [
        ["s0", "merged", SENT_AFTER_PARTS],
        ["s1", "kept", "sent in message 3"],
      ],
      metadata: [true, "Be brief.\n\nYou are terse.".length],
    },
    {
      case: "keep, with a composed prompt: each stored one is a message of its own, after the composed prompt",
      policy: "keep",
      options: { system: "Be brief." },
      messages: [{ role: "system", content: "Be brief." }, { role: "system", content: "You are terse." }, ...turns, french, newest],
      decisions: [
        ["s0", "kept", "sent in message 1"],
        ["s1", "kept", "sent in message 4"],
      ],
      metadata: [true, "Be brief.".length],
    },
    {
      case: "keep, includeSystemPrompt false: the stored messages are still sent, the composed prompt is not",
      policy: "keep",
      options: { system: "Be brief.", includeSystemPrompt: false },
      messages: [{ role: "system", content: "You are terse." }, ...turns, french, newest],
      decisions: [
        ["s0", "kept", "sent in message 0"],
        ["s1", "kept", "sent in message 3"],
      ],
      metadata: [false, 0],
    },
    {
      case: "drop: none is sent, composed prompt or not",
      policy: "drop",
      options: {},
      messages: [...turns, newest],
      decisions: [
        ["s0", "dropped", DROPPED],
        ["s1", "dropped", DROPPED],
      ],
      metadata: [false, 0],
    },
  ])("$case", async ({ policy, options, messages, decisions, metadata }) => {
    const plugins = policy === undefined ? [] : [new InsertSystemPlugin({ storedSystemMessages: policy })];
    const result = await buildWith(plugins, stored, options);
    expect(result.request.messages).toEqual(messages);
    expect(decisions.map(([id]) => result.report.entries.find((entry) => entry.id === id)).map((entry) => [entry?.id, entry?.decision, entry?.reason])).toEqual(decisions);
    expect([result.metadata.systemPromptIncluded, result.metadata.systemPromptLength]).toEqual(metadata);
  });

  test("a stored prompt that stands in for the composed one is reported whole: merged entry, synthesized prompt, its part", async () => {
    const result = await buildWith([], [stored[0]!, stored[1]!]);
    expect(result.report.entries[0]).toEqual({
      id: "s0",
      inputIndex: 0,
      type: "system",
      role: "system",
      decision: "merged",
      stage: "insert-system",
      plugin: "InsertSystemPlugin",
      reason: SENT_AS_PROMPT,
      relatedId: "ctxpipe:system-prompt",
      tokens: wordTokenizer.count("You are terse."),
      messageIndex: 0,
      history: [{ decision: "merged", stage: "insert-system", plugin: "InsertSystemPlugin", reason: SENT_AS_PROMPT, relatedId: "ctxpipe:system-prompt" }],
    });
    expect(result.report.synthesized.map((entry) => [entry.id, entry.reason])).toEqual([["ctxpipe:system-prompt", "system prompt merged from 1 part(s): s0"]]);
    expect(result.report.systemParts).toEqual([{ id: "s0", text: "You are terse.", order: 0, addedBy: "InsertSystemPlugin", tokens: wordTokenizer.count("You are terse.") }]);
    expect(result.excludedIds).toEqual([]);
    // Merged into the system prompt, the stored message is sent with it.
    expect(result.includedIds).toContain("s0");
  });

  test.for([
    { pipeline: "the default pipeline", defaults: {}, blank: ["repair-orphans", "system item with no visible text"] },
    { pipeline: "a pipeline without repair-orphans", defaults: { repairOrphans: false }, blank: ["insert-system", BLANK] },
  ])("several leading stored messages make one prompt, in order; a blank one is dropped with why ($pipeline)", async ({ defaults, blank }) => {
    const result = await createPipeline({ defaults }).build(
      [
        { id: "s0", type: "system", text: "You are terse." },
        { id: "blank", type: "system", text: " \u200B" },
        { id: "s2", type: "system", text: "Use metric units." },
        { id: "u1", type: "user", text: "Hi." },
      ],
      { tokenizer: wordTokenizer },
    );
    expect(result.request.messages).toEqual([{ role: "system", content: "You are terse.\n\nUse metric units." }, { role: "user", content: "Hi." }]);
    expect(result.report.entries.map((entry) => [entry.id, entry.decision, entry.stage, entry.reason])).toEqual([
      ["s0", "merged", "insert-system", SENT_AS_PROMPT],
      ["blank", "dropped", ...blank],
      ["s2", "merged", "insert-system", SENT_AS_PROMPT],
      ["u1", "kept", "render", "sent in message 1"],
    ]);
  });

  test("parts composed by a plugin in the same stage count as a composed prompt", async () => {
    const persona = {
      name: "Persona",
      apply: (host: Parameters<InsertSystemPlugin["apply"]>[0]) =>
        host.hooks.insertSystem.tap({ name: "Persona" }, (_items, context) => void context.system.add({ id: "persona", text: "You are Ada." })),
    };
    const result = await buildWith([persona], stored);
    expect(result.request.messages).toEqual([{ role: "system", content: "You are Ada." }, ...turns, newest]);
    expect(result.report.entries[0]).toMatchObject({ decision: "dropped", stage: "insert-system", reason: REPLACED });
  });

  test("a reused pipeline gives what a new one gives, build after build", async () => {
    const reused = createPipeline();
    const grown = [...stored, { id: "a2", type: "assistant", text: "Très bien." } as const, { id: "u3", type: "user", text: "Merci." } as const];
    for (const items of [stored, grown, stored.slice(0, 2), grown]) {
      const again = await reused.build(items, { tokenizer: wordTokenizer });
      const fresh = await createPipeline().build(items, { tokenizer: wordTokenizer });
      expect(JSON.stringify(again.request)).toBe(JSON.stringify(fresh.request));
      expect(again.report.entries).toEqual(fresh.report.entries);
      expect(again.metadata).toEqual(fresh.metadata);
    }
  });

  test("an unknown policy is refused in the constructor, naming the option", () => {
    expect(() => new InsertSystemPlugin({ storedSystemMessages: "sometimes" as never })).toThrow(
      expect.objectContaining({ name: "PluginOptionsError", plugin: "InsertSystemPlugin", message: expect.stringContaining("storedSystemMessages") }),
    );
  });
});

describe("InsertSystemPlugin: stored system messages and the budget", () => {
  test("a stored prompt counts in the budget: the oldest turns make room for it, and it is sent whole", async () => {
    const prompt = `You are terse. ${"Rule. ".repeat(40)}`.trim();
    const history: ItemInput[] = [{ id: "s0", type: "system", text: prompt }];
    for (let turn = 0; turn < 12; turn++) {
      history.push({ id: `u${turn}`, type: "user", text: `Question ${turn} ${"word ".repeat(10)}` }, { id: `a${turn}`, type: "assistant", text: `Answer ${turn} ${"word ".repeat(10)}` });
    }
    const result = await buildWith([], history, { maxTokens: 200 });
    expect(result.tokenCount).toBeLessThanOrEqual(200);
    expect(result.request.messages[0]).toEqual({ role: "system", content: prompt });
    expect(result.report.entries[0]).toMatchObject({ id: "s0", decision: "merged", reason: SENT_AS_PROMPT });
    expect(result.report.entries.find((entry) => entry.id === "u0")).toMatchObject({ decision: "dropped", stage: "compress" });
  });
});
