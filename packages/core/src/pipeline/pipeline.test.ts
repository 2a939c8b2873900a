import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { CtxpipeError } from "../errors/ctxpipe-error.js";
import { PipelineFrozenError } from "../errors/pipeline-frozen-error.js";
import { PluginOptionsError } from "../errors/plugin-options-error.js";
import { PluginError } from "../errors/plugin-error.js";
import type { Item, ItemInput } from "../model/item.js";
import { parseItems } from "../model/parse-items.js";
import { copiesEditsDates } from "../testing/adversarial/copies-edits-dates.js";
import { adversarialConversations, conversationFixture, wordTokenizer } from "../testing/index.js";
import { DEFAULT_PLUGIN_NAMES } from "./default-plugins.js";
import { createPipeline, Pipeline } from "./pipeline.js";
import type { PipelinePlugin, PluginHost } from "./pipeline-hooks.js";
import { STAGE } from "./stage.js";

const chat: ItemInput[] = [
  { id: "u1", type: "user", text: "hello" },
  { id: "a1", type: "assistant", text: "hi there" },
  { id: "u2", type: "user", text: "bye" },
];

function plugin(name: string, apply: (pipeline: PluginHost) => void): PipelinePlugin {
  return { name, apply };
}

/** The default plugins' keys, as the error for an unknown one lists them. */
const KEYS = DEFAULT_PLUGIN_NAMES.join(", ");

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

describe("stage order", () => {
  test("stages run compress → filter → repair-orphans → insert-system → validate → render", async () => {
    const seen: string[] = [];
    const recorder = plugin("Recorder", (pipeline) => {
      // Tapped deliberately out of order: the pipeline, not registration, decides the order.
      pipeline.hooks.render.for("openai").tap({ name: "Recorder", stage: STAGE.FIRST }, () => {
        seen.push("render");
        return undefined;
      });
      pipeline.hooks.validate.tap({ name: "Recorder" }, () => void seen.push("validate"));
      pipeline.hooks.insertSystem.tap({ name: "Recorder" }, () => void seen.push("insert-system"));
      pipeline.hooks.repairOrphans.tap({ name: "Recorder" }, () => void seen.push("repair-orphans"));
      pipeline.hooks.filter.tap({ name: "Recorder" }, () => void seen.push("filter"));
      pipeline.hooks.compress.tap({ name: "Recorder" }, () => void seen.push("compress"));
    });
    await createPipeline({ plugins: [recorder] }).build(chat);
    expect(seen).toEqual(["compress", "filter", "repair-orphans", "insert-system", "validate", "render"]);
  });

  test("each stage's context names the stage that is running", async () => {
    const stages: string[] = [];
    const recorder = plugin("Recorder", (pipeline) => {
      for (const hook of [pipeline.hooks.compress, pipeline.hooks.filter, pipeline.hooks.repairOrphans, pipeline.hooks.insertSystem]) {
        hook.tap({ name: "Recorder" }, (_items, context) => void stages.push(context.stage));
      }
      pipeline.hooks.validate.tap({ name: "Recorder" }, (_items, context) => void stages.push(context.stage));
    });
    await createPipeline({ plugins: [recorder] }).build(chat);
    expect(stages).toEqual(["compress", "filter", "repair-orphans", "insert-system", "validate"]);
  });
});

describe("numeric ordering inside a stage", () => {
  test.for([
    { registered: [100, -100, 0], expected: [-100, 0, 100] },
    { registered: [STAGE.LAST, STAGE.FIRST, STAGE.LATE, STAGE.EARLY], expected: [STAGE.FIRST, STAGE.EARLY, STAGE.LATE, STAGE.LAST] },
    { registered: [5, 5, -5], expected: [-5, 5, 5] },
  ])("taps registered at $registered run in order $expected", async ({ registered, expected }) => {
    const ran: number[] = [];
    const taps = plugin("Ordered", (pipeline) => {
      for (const stage of registered) pipeline.hooks.filter.tap({ name: `Ordered${stage}`, stage }, () => void ran.push(stage));
    });
    await createPipeline({ plugins: [taps] }).build(chat);
    expect(ran).toEqual(expected);
  });

  test("equal stage numbers keep registration order", async () => {
    const ran: string[] = [];
    const first = plugin("First", (pipeline) => pipeline.hooks.compress.tap({ name: "First" }, () => void ran.push("First")));
    const second = plugin("Second", (pipeline) => pipeline.hooks.compress.tap({ name: "Second" }, () => void ran.push("Second")));
    await createPipeline({ plugins: [first, second] }).build(chat);
    expect(ran).toEqual(["First", "Second"]);
  });
});

describe("waterfall semantics", () => {
  test("returning undefined keeps the items, returning a list hands it to the next tap", async () => {
    const received: string[][] = [];
    const waterfall = plugin("Waterfall", (pipeline) => {
      pipeline.hooks.compress.tap({ name: "KeepAll", stage: 1 }, () => undefined);
      pipeline.hooks.compress.tapPromise({ name: "DropFirst", stage: 2 }, async (items, context) => {
        context.report.drop(items[0]!, "test drops the oldest item");
        return items.slice(1);
      });
      pipeline.hooks.compress.tap({ name: "Observe", stage: 3 }, (items) => void received.push(items.map((item) => item.id)));
      pipeline.hooks.filter.tap({ name: "ObserveFilter" }, (items) => void received.push(items.map((item) => item.id)));
    });
    const result = await createPipeline({ plugins: [waterfall] }).build(chat);
    expect(received).toEqual([
      ["a1", "u2"],
      ["a1", "u2"],
    ]);
    expect(result.excludedIds).toEqual(["u1"]);
    expect(result.report.entries[0]).toMatchObject({ id: "u1", decision: "dropped", stage: "compress", plugin: "DropFirst", reason: "test drops the oldest item" });
  });

  test("async taps run in series, each seeing the previous result", async () => {
    const order: string[] = [];
    const slow = plugin("Slow", (pipeline) => {
      pipeline.hooks.repairOrphans.tapPromise({ name: "Slow", stage: 1 }, async (items) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push("slow");
        return [...items, { id: "extra", type: "user", text: "added", role: "user", metadata: {} } satisfies Item];
      });
      pipeline.hooks.repairOrphans.tap({ name: "Fast", stage: 2 }, (items) => {
        order.push(`fast saw ${items.length}`);
        return undefined;
      });
    });
    const result = await createPipeline({ plugins: [slow] }).build(chat);
    expect(order).toEqual(["slow", "fast saw 4"]);
    expect(result.report.synthesized).toEqual([
      expect.objectContaining({ id: "extra", decision: "synthesized", stage: "repair-orphans", plugin: "Slow", reason: "added by Slow without a recorded reason" }),
    ]);
  });
});

describe("freezing", () => {
  test("registering a plugin after the first build throws PipelineFrozenError saying what to do", async () => {
    const pipeline = createPipeline();
    expect(pipeline.frozen).toBe(false);
    await pipeline.build(chat);
    expect(pipeline.frozen).toBe(true);
    const error = (() => {
      try {
        pipeline.use(plugin("Late", () => {}));
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(PipelineFrozenError);
    expect(error).toMatchObject({ name: "PipelineFrozenError", code: "PIPELINE_FROZEN", plugin: "Late" });
    expect((error as Error).message).toMatch(/already built.*pipeline\.clone\(\)/s);
  });

  test("a plugin that kept the hooks cannot tap them after the build either", async () => {
    let saved: PluginHost | undefined;
    const keeper = plugin("Keeper", (host) => {
      saved = host;
    });
    const pipeline = createPipeline({ plugins: [keeper] });
    await pipeline.build(chat);
    expect(() => saved!.hooks.filter.tap({ name: "Keeper" }, () => undefined)).toThrow(PipelineFrozenError);
  });

  test("clone() gives an unfrozen pipeline with the same plugins", async () => {
    const marker = plugin("Marker", (pipeline) =>
      pipeline.hooks.compress.tap({ name: "Marker" }, (items, context) => {
        context.report.drop(items[0]!, "marker");
        return items.slice(1);
      }),
    );
    const pipeline = createPipeline({ plugins: [marker] });
    await pipeline.build(chat);
    const copy = pipeline.clone();
    expect(copy.frozen).toBe(false);
    copy.use(plugin("Extra", () => {}));
    const result = await copy.build(chat);
    expect(result.excludedIds).toEqual(["u1"]);
  });

  test("the built result does not depend on which build froze the pipeline", async () => {
    const pipeline = createPipeline();
    const first = await pipeline.build(chat, { tokenizer: wordTokenizer });
    const second = await pipeline.build(chat, { tokenizer: wordTokenizer });
    // Only report.cache may differ: it compares with the build before, of which the first had none.
    expect(JSON.stringify({ ...second, report: { ...second.report, cache: first.report.cache } })).toBe(JSON.stringify(first));
    expect(second.report.cache).toMatchObject({ compared: true, breaksAt: undefined });
  });
});

describe("error attribution", () => {
  const hooks = [
    { hook: "compress", tapOn: (host: PluginHost) => host.hooks.compress },
    { hook: "filter", tapOn: (host: PluginHost) => host.hooks.filter },
    { hook: "repair-orphans", tapOn: (host: PluginHost) => host.hooks.repairOrphans },
    { hook: "insert-system", tapOn: (host: PluginHost) => host.hooks.insertSystem },
    { hook: "validate", tapOn: (host: PluginHost) => host.hooks.validate },
  ] as const;

  test.for(hooks)("a throw in $hook becomes a PluginError naming the plugin and the hook", async ({ hook, tapOn }) => {
    const cause = new RangeError("boom");
    const broken = plugin("Broken", (host) => {
      (tapOn(host) as PluginHost["hooks"]["filter"]).tap({ name: "Broken" }, () => {
        throw cause;
      });
    });
    const error = await caught(createPipeline({ plugins: [broken] }).build(chat));
    expect(error).toBeInstanceOf(PluginError);
    expect(error).toMatchObject({ name: "PluginError", code: "PLUGIN_FAILED", plugin: "Broken", hook, cause, message: `[plugin Broken] ${hook}: boom` });
  });

  test("a rejected promise is attributed like a throw", async () => {
    const broken = plugin("Async", (host) =>
      host.hooks.compress.tapPromise({ name: "Async" }, async () => {
        throw Object.assign(new Error("network down"), { code: "E_DOWN" });
      }),
    );
    const error = await caught(createPipeline({ plugins: [broken] }).build(chat));
    expect(error).toMatchObject({ name: "PluginError", plugin: "Async", hook: "compress", pluginCode: "E_DOWN", message: "[plugin Async] compress: network down" });
  });

  test("a plugin package's own typed error, and invalid per-build options, reach the caller unwrapped", async () => {
    class OwnError extends CtxpipeError {
      constructor() {
        super("OWN_FAILURE", "the plugin's own words");
        this.name = "OwnError";
      }
    }
    const own = await caught(createPipeline({ plugins: [plugin("Own", (host) => host.hooks.compress.tap({ name: "Own" }, () => { throw new OwnError(); }))] }).build(chat));
    expect(own).toBeInstanceOf(OwnError);
    expect(own).toMatchObject({ code: "OWN_FAILURE", message: "the plugin's own words" });
    const options = await caught(
      createPipeline({ plugins: [plugin("Picky", (host) => host.hooks.filter.tap({ name: "Picky" }, () => { throw new PluginOptionsError("Picky", "  level: too high"); }))] }).build(chat),
    );
    expect(options).toBeInstanceOf(PluginOptionsError);
    // A core error that is not about plugins (here a frozen pipeline) still says which plugin hit it.
    const frozen = await caught(createPipeline({ plugins: [plugin("Late", (host) => host.hooks.filter.tap({ name: "Late" }, () => { throw new PipelineFrozenError("X"); }))] }).build(chat));
    expect(frozen).toMatchObject({ name: "PluginError", plugin: "Late" });
  });

  test("a throw in a renderer names the renderer hook", async () => {
    const broken = plugin("BadRenderer", (host) =>
      host.hooks.render.for("broken").tap({ name: "BadRenderer" }, () => {
        throw new Error("cannot render");
      }),
    );
    const error = await caught(createPipeline({ plugins: [broken] }).build(chat, { renderer: "broken" as "openai" }));
    expect(error).toMatchObject({ name: "PluginError", plugin: "BadRenderer", hook: "render:broken", message: "[plugin BadRenderer] render:broken: cannot render" });
  });

  test("a throw in a tokenizer plugin names the tokenizer hook", async () => {
    const broken = plugin("BadTokenizer", (host) =>
      host.hooks.tokenizer.tap({ name: "BadTokenizer" }, () => {
        throw new Error("no ranks");
      }),
    );
    const error = await caught(createPipeline({ plugins: [broken] }).build(chat));
    expect(error).toMatchObject({ name: "PluginError", plugin: "BadTokenizer", hook: "tokenizer", message: "[plugin BadTokenizer] tokenizer: no ranks" });
  });

  test("a throw in apply() names the plugin and the apply hook", () => {
    const broken = plugin("BadApply", () => {
      throw new Error("misconfigured");
    });
    expect(() => createPipeline({ plugins: [broken] })).toThrow(expect.objectContaining({ name: "PluginError", plugin: "BadApply", hook: "apply", message: "[plugin BadApply] apply: misconfigured" }));
  });

  test.for([
    { returned: "not a list", message: "[plugin Liar] filter: returned string instead of an item array; return the new list, or undefined to keep it" },
    { returned: null, message: "[plugin Liar] filter: returned null instead of an item array; return the new list, or undefined to keep it" },
    { returned: [{ id: "x", type: "user" }], message: '[plugin Liar] filter: returned an invalid item at position 0 (id "x"), field text: Invalid input: expected string, received undefined' },
    {
      returned: [
        { id: "same", type: "user", text: "a" },
        { id: "same", type: "user", text: "b" },
      ],
      message: '[plugin Liar] filter: returned two items with the id "same"; ids must stay unique',
    },
  ])("a stage tap returning $returned is reported as that plugin's fault", async ({ returned, message }) => {
    const liar = plugin("Liar", (host) => host.hooks.filter.tap({ name: "Liar" }, () => returned as never));
    const error = await caught(createPipeline({ plugins: [liar] }).build(chat));
    expect(error).toMatchObject({ name: "PluginError", plugin: "Liar", hook: "filter", message });
  });

  test("a tap that records a drop but still returns the item is refused, so the report cannot contradict the request", async () => {
    const liar = plugin("HalfDrop", (host) =>
      host.hooks.filter.tap({ name: "HalfDrop" }, (items, context) => {
        context.report.drop(items[0]!, "pretending");
        return undefined;
      }),
    );
    const error = await caught(createPipeline({ plugins: [liar] }).build(chat));
    expect(error).toMatchObject({ name: "PluginError", plugin: "HalfDrop", hook: "filter", message: '[plugin HalfDrop] filter: recorded item "u1" as dropped but still returned it; remove it from the list it returns' });
  });

  test("a validate tap cannot record decisions about items", async () => {
    const meddler = plugin("Meddler", (host) => host.hooks.validate.tap({ name: "Meddler" }, (items, context) => context.report.drop(items[0]!, "no")));
    const error = await caught(createPipeline({ plugins: [meddler] }).build(chat));
    expect(error).toMatchObject({ name: "PluginError", plugin: "Meddler", hook: "validate", message: "[plugin Meddler] validate: validate taps report problems with context.issue(); they cannot change the items" });
  });

  test("an input item a plugin replaced with its own object is reported as repaired, not kept", async () => {
    const swapper = plugin("Swapper", (host) => {
      host.hooks.compress.tap({ name: "Swapper", stage: 1 }, (items, context) => {
        context.report.drop(items[0]!, "gone");
        return items.slice(1);
      });
      host.hooks.compress.tap({ name: "Restorer", stage: 2 }, (items) => [{ id: "u1", type: "user", text: "rewritten", role: "user", metadata: {} } satisfies Item, ...items]);
    });
    const result = await createPipeline({ plugins: [swapper] }).build(chat);
    expect(result.report.entries[0]).toMatchObject({ id: "u1", decision: "repaired", plugin: "Restorer", reason: "replaced: added by Restorer without a recorded reason" });
    expect(result.includedIds).toContain("u1");
  });

  test("a renderer returning something that is not a render result is that renderer's fault", async () => {
    const liar = plugin("LiarRenderer", (host) => host.hooks.render.for("liar").tap({ name: "LiarRenderer" }, () => ({ request: {}, tokenCount: -1, messageCount: 0 })));
    const error = await caught(createPipeline({ plugins: [liar] }).build(chat, { renderer: "liar" as "openai" }));
    expect(error).toMatchObject({ name: "PluginError", plugin: "LiarRenderer", hook: "render:liar", message: "[plugin LiarRenderer] render:liar: returned a render result whose tokenCount is not a non-negative number" });
  });

  test.for([
    { options: {}, message: 'Invalid options for (unnamed plugin):\n  tapping "filter" needs options { name: string, stage?: number }, with the plugin\'s name' },
    { options: { name: "NoStage", stage: Number.NaN }, message: 'Invalid options for NoStage:\n  stage: must be a finite number when tapping "filter" (see STAGE)' },
  ])("tapping with bad options $options is a PluginOptionsError", ({ options, message }) => {
    const bad = plugin("Bad", (host) => host.hooks.filter.tap(options as never, () => undefined));
    expect(() => new Pipeline({ plugins: [bad] })).toThrow(expect.objectContaining({ name: "PluginOptionsError", code: "OPTIONS_INVALID", message }));
  });

  test("a failing tokenizer is blamed on whoever supplied it, not on the renderer that called it", async () => {
    const broken = { specificationVersion: "v1" as const, name: "broken", exact: true, count: () => Number.NaN };
    await expect(createPipeline().build(chat, { tokenizer: broken })).rejects.toMatchObject({
      name: "PluginError",
      plugin: "build() options",
      hook: "tokenizer",
      message: '[plugin build() options] tokenizer: tokenizer "broken" counted NaN tokens; a count is a non-negative integer',
    });
    const throwing = plugin("ThrowingTokenizer", (host) =>
      host.hooks.tokenizer.tap({ name: "ThrowingTokenizer" }, () => ({
        ...broken,
        count: () => {
          throw new Error("ranks missing");
        },
      })),
    );
    await expect(createPipeline({ plugins: [throwing] }).build(chat)).rejects.toMatchObject({ plugin: "ThrowingTokenizer", hook: "tokenizer", message: "[plugin ThrowingTokenizer] tokenizer: ranks missing" });
  });

  test.for([
    { options: null, field: "" },
    { options: { plugins: {} }, field: "plugins" },
    { options: { defaults: "x" }, field: "defaults" },
    { options: { defaults: { filtre: false } }, field: "filtre" },
  ])("bad pipeline options $options are a PluginOptionsError, not a TypeError", ({ options, field }) => {
    expect(() => new Pipeline(options as never)).toThrow(expect.objectContaining({ name: "PluginOptionsError", plugin: "createPipeline()", message: expect.stringContaining(field) }));
  });

  test.for([
    {
      defaults: { OpenAIChatRendererPlugin: false },
      message:
        `Invalid options for createPipeline():\n✖ unknown key "OpenAIChatRendererPlugin": did you mean openaiRenderer? The default plugins' keys are: ${KEYS}\n  → at defaults.OpenAIChatRendererPlugin`,
    },
    {
      defaults: { FitBudgetPlugin: false, EstimatingTokenizerPlugin: true },
      message:
        `Invalid options for createPipeline():\n✖ unknown key "FitBudgetPlugin": did you mean fitBudget? The default plugins' keys are: ${KEYS}\n  → at defaults.FitBudgetPlugin\n✖ unknown key "EstimatingTokenizerPlugin": did you mean tokenizer? The default plugins' keys are: ${KEYS}\n  → at defaults.EstimatingTokenizerPlugin`,
    },
    {
      defaults: { OpenAIRenderer: false },
      message:
        `Invalid options for createPipeline():\n✖ unknown key "OpenAIRenderer": did you mean openaiRenderer? The default plugins' keys are: ${KEYS}\n  → at defaults.OpenAIRenderer`,
    },
    {
      defaults: { filter: false, filtre: false },
      message:
        `Invalid options for createPipeline():\n✖ unknown key "filtre". The default plugins' keys are: ${KEYS}\n  → at defaults.filtre`,
    },
  ])("an unknown key in defaults $defaults lists the keys, and names the key a plugin name stands for", ({ defaults, message }) => {
    expect(() => createPipeline({ defaults: defaults as never })).toThrow(PluginOptionsError);
    expect(() => createPipeline({ defaults: defaults as never })).toThrow(
      expect.objectContaining({ name: "PluginOptionsError", code: "OPTIONS_INVALID", plugin: "createPipeline()", message }),
    );
  });

  test("use() refuses a second plugin with a default plugin's name and says how to replace it", () => {
    expect(() => createPipeline().use(plugin("FilterPlugin", () => {}))).toThrow(
      expect.objectContaining({ name: "PluginOptionsError", plugin: "FilterPlugin", message: expect.stringContaining("createPipeline({ plugins })") }),
    );
  });

  test("a build refused for bad options does not freeze the pipeline", async () => {
    const pipeline = createPipeline();
    await expect(pipeline.build(chat, { maxTokens: -1 })).rejects.toMatchObject({ code: "OPTIONS_INVALID" });
    await expect(pipeline.build(chat, { tools: [{ name: "bad name" }] })).rejects.toMatchObject({ code: "OPTIONS_INVALID" });
    expect(pipeline.frozen).toBe(false);
  });

  test("something that is not a plugin is refused at registration", () => {
    expect(() => createPipeline().use({ name: "NoApply" } as never)).toThrow(
      expect.objectContaining({ name: "PluginOptionsError", plugin: "NoApply", message: "Invalid options for NoApply:\n  a plugin is an object { name: string, apply(pipeline): void }" }),
    );
  });
});

describe("renderers and tokenizers", () => {
  test("asking for a renderer nobody registered names the ones that exist", async () => {
    const error = await caught(createPipeline().build(chat, { renderer: "gemini" as "openai" }));
    expect(error).toMatchObject({
      name: "RendererNotFoundError",
      code: "RENDERER_NOT_FOUND",
      renderer: "gemini",
      available: ["openai"],
      message: 'No renderer named "gemini" (registered: openai). Register the plugin that provides it with pipeline.use().',
    });
  });

  test("a renderer tap that bails with undefined lets the next tap render", async () => {
    const passes = plugin("Passes", (host) => host.hooks.render.for("openai").tap({ name: "Passes", stage: STAGE.FIRST }, () => undefined));
    const result = await createPipeline({ plugins: [passes] }).build(chat);
    expect(result.request.messages).toHaveLength(3);
    expect(result.report.entries[0]).toMatchObject({ decision: "kept", plugin: "OpenAIChatRendererPlugin" });
  });

  test("a tokenizer plugin replaces the chars/4 default, and build options override both", async () => {
    const words = plugin("Words", (host) => host.hooks.tokenizer.tap({ name: "Words" }, ({ model }) => (model === "word-model" ? wordTokenizer : undefined)));
    const pipeline = createPipeline({ plugins: [words] });
    const byPlugin = await pipeline.build(chat, { model: "word-model" });
    const byDefault = await pipeline.build(chat, { model: "other" });
    expect(byPlugin.report.tokenizer).toEqual({ name: "words", exact: true });
    expect(byPlugin.tokenCountExact).toBe(true);
    expect(byDefault.report.tokenizer).toEqual({ name: "chars/4", exact: false });
    expect(byDefault.tokenCountExact).toBe(false);
  });

  test("with every default switched off there is no tokenizer and no renderer, and the errors say so", async () => {
    const bare = createPipeline({ defaults: false });
    await expect(bare.build(chat)).rejects.toMatchObject({ code: "TOKENIZER_NOT_FOUND" });
    await expect(createPipeline({ defaults: false }).build(chat, { tokenizer: wordTokenizer })).rejects.toMatchObject({ code: "RENDERER_NOT_FOUND" });
  });
});

describe("default plugins", () => {
  test("a plugin with a default plugin's name replaces it", async () => {
    const keepEverything = plugin("FilterPlugin", (host) => host.hooks.filter.tap({ name: "FilterPlugin" }, () => undefined));
    const result = await createPipeline({ plugins: [keepEverything] }).build(conversationFixture(), { tokenizer: wordTokenizer });
    // The stored system message and the excluded one are no longer filtered out.
    expect(result.request.messages.map((message) => message.content)).toContain("Note to self");
    expect(result.metadata.filteredCount).toBe(0);
  });

  test("defaults can be switched off one by one", async () => {
    const result = await createPipeline({ defaults: { filter: false } }).build(conversationFixture(), { tokenizer: wordTokenizer });
    expect(result.includedIds).toContain("u2");
  });
});

describe("stored histories: copies, edits, dates and order", () => {
  const said = (id: string, text: string, type: "user" | "assistant" = "user", createdAt?: string): ItemInput => ({ id, type, text, ...(createdAt === undefined ? {} : { createdAt }) });
  const brief = (entry: { id: string; inputIndex: number | undefined; decision: string; reason: string }) => [entry.id, entry.inputIndex, entry.decision, entry.reason];

  test("an edit (same id, other content) is sent at the earlier version's place; the earlier version is reported", async () => {
    const built = await createPipeline().build(
      [said("u1", "hello"), said("a1", "helo", "assistant"), said("u2", "what?"), said("a1", "hello", "assistant"), said("u3", "ah")],
      { tokenizer: wordTokenizer },
    );
    expect(built.request.messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "hello"],
      ["assistant", "hello"],
      ["user", "what?"],
      ["user", "ah"],
    ]);
    expect(built.report.entries.map(brief)).toEqual([
      ["u1", 0, "kept", "sent in message 0"],
      ["a1", 1, "dropped", 'an earlier version of this message (same id "a1"); the edit at input index 3 takes its place'],
      ["u2", 2, "kept", "sent in message 2"],
      ["a1", 3, "kept", "sent in message 1"],
      ["u3", 4, "kept", "sent in message 3"],
    ]);
    expect(built.report.entries[1]).toMatchObject({ stage: "repair-orphans", plugin: "ctxpipe", tokens: 1 });
    // The earlier version right before the version sent in its place.
    expect(built.report.allEntries.map((entry) => entry.inputIndex)).toEqual([0, 1, 3, 2, 4]);
    // Its id is sent (in the edit), so it is not among the ids left out.
    expect(built.excludedIds).toEqual([]);
    expect(built.metadata.inputCount).toBe(5);
  });

  test("an exact copy is left out and reported; copies and edits of one record together", async () => {
    const built = await createPipeline().build([said("u1", "hi"), said("u1", "hi"), said("u1", "hi!"), said("u1", "hi!")], { tokenizer: wordTokenizer });
    expect(built.request.messages).toEqual([{ role: "user", content: "hi!" }]);
    expect(built.report.entries.map(brief)).toEqual([
      ["u1", 0, "dropped", 'an earlier version of this message (same id "u1"); the edit at input index 2 takes its place'],
      ["u1", 1, "dropped", 'an earlier version of this message (same id "u1"); the edit at input index 2 takes its place'],
      ["u1", 2, "kept", "sent in message 0"],
      ["u1", 3, "dropped", "an exact copy of input item 2 (same id and content), stored twice"],
    ]);
  });

  test("a createdAt that is not a date keeps its position, with a warning naming the item's index, id and value", async () => {
    const built = await createPipeline().build(
      [said("u1", "first", "user", "2026-01-01T10:00:00Z"), said("a1", "second", "assistant", "yesterday"), said("u2", "third", "user", "2026-01-01T10:01:00Z")],
      { tokenizer: wordTokenizer },
    );
    expect(built.request.messages.map((message) => message.content)).toEqual(["first", "second", "third"]);
    expect(built.report.warnings).toEqual(['[ctxpipe] item 1 (id "a1"): createdAt "yesterday" is not a date; it keeps its position']);
    expect(built.report.order).toEqual({ by: "createdAt", moved: 0 });
  });

  test.for([
    { order: undefined, sent: ["a", "b", "c"], report: { by: "createdAt", moved: 2 } },
    { order: "createdAt" as const, sent: ["a", "b", "c"], report: { by: "createdAt", moved: 2 } },
    { order: "input" as const, sent: ["b", "a", "c"], report: { by: "input", moved: 0 } },
  ])("order $order: a log whose clocks disagree with its order is sent as $sent", async ({ order, sent, report }) => {
    // "b" was written first by a process whose clock runs a minute fast.
    const log = [said("b", "b", "user", "2026-01-01T10:01:30Z"), said("a", "a", "user", "2026-01-01T10:00:45Z"), said("c", "c", "user", "2026-01-01T10:02:00Z")];
    const built = await createPipeline().build(log, { tokenizer: wordTokenizer, ...(order === undefined ? {} : { order }) });
    expect(built.request.messages.map((message) => message.content)).toEqual(sent);
    expect(built.report.order).toEqual(report);
  });

  test("an order that is neither createdAt nor input is refused as a build option", async () => {
    const error = await caught(createPipeline().build(chat, { tokenizer: wordTokenizer, order: "time" as "input" }));
    expect(error).toBeInstanceOf(PluginOptionsError);
    expect((error as Error).message).toContain("order");
  });

  test("copies, edits and bad dates never refuse a build; each record has its entry, and the last version of each id is sent (property)", async () => {
    await fc.assert(
      fc.asyncProperty(adversarialConversations(fc, { maxSteps: 12 }), copiesEditsDates(fc), fc.constantFrom("createdAt" as const, "input" as const), async (generated, perturb, order) => {
        // A user turn first: an empty history is refused for being empty, which is not the point here.
        const input = perturb([{ id: "start", type: "user", text: "Start." }, ...generated]);
        const built = await createPipeline().build(input, { tokenizer: wordTokenizer, order });
        const { entries } = built.report;
        expect(entries.map((entry) => entry.inputIndex)).toEqual(input.map((_, index) => index));
        const content = (index: number) => JSON.stringify(parseItems([input[index]!]));
        const setAside = new Set<number>();
        for (const entry of entries) {
          const named = /^an exact copy of input item (\d+)|^an earlier version of this message \(same id .*\); the edit at input index (\d+) takes its place$/.exec(entry.reason);
          if (named === null) continue;
          setAside.add(entry.inputIndex!);
          const keptIndex = Number(named[1] ?? named[2]);
          expect(entry).toMatchObject({ decision: "dropped", plugin: "ctxpipe" });
          expect(entries[keptIndex]!.id).toBe(entry.id);
        }
        // One record per id is not set aside, and it holds what the id's last record holds.
        const kept = entries.filter((entry) => !setAside.has(entry.inputIndex!));
        expect(new Set(kept.map((entry) => entry.id)).size).toBe(kept.length);
        for (const entry of kept) expect(content(entry.inputIndex!)).toBe(content(input.findLastIndex((item) => item.id === entry.id)));
        const badDates = kept.filter((entry) => Number.isNaN(Date.parse(input[entry.inputIndex!]!.createdAt ?? "2026-01-01")));
        expect(built.report.warnings.filter((warning) => warning.startsWith("[ctxpipe] item ")).length).toBe(badDates.length);
        if (order === "input") expect(built.report.order).toEqual({ by: "input", moved: 0 });
      }),
      { numRuns: 150 },
    );
  });
});
