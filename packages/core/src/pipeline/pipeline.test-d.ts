// Type tests for the plugin API and the renderer-typed build result. Checked by `tsc` (typecheck)
// and by vitest's typecheck mode.
import { describe, expectTypeOf, test } from "vitest";
import type { Decision, Item, ItemOf, ModelLimits, ModelLimitsRequest, OffloadedText, OpenAIChatRequest, RenderResult, ReportEntry, TextCut } from "@ctxpipe/core";
import { createPipeline, type PipelinePlugin, type PluginHost, type StageContext, type ValidateContext } from "@ctxpipe/core";

declare module "@ctxpipe/core" {
  interface RendererOutputMap {
    "test-markdown": { transcript: string };
  }
}

describe("plugin API", () => {
  test("hooks are tap-only for plugins", () => {
    const plugin: PipelinePlugin = {
      name: "Probe",
      apply(pipeline: PluginHost) {
        // @ts-expect-error plugins cannot call a stage, only tap it
        pipeline.hooks.filter.promise;
        // @ts-expect-error no tapable call() either
        pipeline.hooks.compress.call;
        // @ts-expect-error nor callAsync()
        pipeline.hooks.validate.callAsync;
        // @ts-expect-error a tap needs options with the plugin's name, not a bare string
        pipeline.hooks.filter.tap("Probe", () => undefined);
        pipeline.hooks.filter.tap({ name: "Probe", stage: 10 }, (items, context) => {
          expectTypeOf(items).toEqualTypeOf<ReadonlyArray<Item>>();
          expectTypeOf(context).toEqualTypeOf<StageContext>();
          return undefined;
        });
        pipeline.hooks.validate.tap({ name: "Probe" }, (_items, context) => {
          expectTypeOf(context).toEqualTypeOf<ValidateContext>();
          expectTypeOf(context.issue).parameter(0).toExtend<{ rule: string; message: string }>();
        });
      },
    };
    expectTypeOf(plugin.apply).parameter(0).toEqualTypeOf<PluginHost>();
  });

  test("a stage tap returns items, undefined, or a promise of either", () => {
    const pipeline = createPipeline();
    pipeline.hooks.compress.tapPromise({ name: "Async" }, async (items) => items.slice(1));
    // @ts-expect-error a stage tap cannot return something that is not an item list
    pipeline.hooks.compress.tap({ name: "Wrong" }, () => 42);
  });

  test("renderer hooks are typed by the renderer's registered output", () => {
    const pipeline = createPipeline();
    pipeline.hooks.render.for("openai").tap({ name: "OpenAI" }, () => undefined);
    expectTypeOf(pipeline.hooks.render.for("test-markdown").tap).parameter(1).returns.toEqualTypeOf<RenderResult<{ transcript: string }> | undefined>();
    // @ts-expect-error the render result must carry the renderer's own request type
    pipeline.hooks.render.for("test-markdown").tap({ name: "Md" }, () => ({ request: { messages: [] }, tokenCount: 0, messageCount: 0 }));
  });
});

describe("build()", () => {
  test("is typed by the chosen renderer", async () => {
    const pipeline = createPipeline();
    const openai = await pipeline.build([]);
    expectTypeOf(openai.request).toEqualTypeOf<OpenAIChatRequest>();
    const markdown = await pipeline.build([], { renderer: "test-markdown" });
    expectTypeOf(markdown.request).toEqualTypeOf<{ transcript: string }>();
    // @ts-expect-error an unregistered renderer name does not type-check
    await pipeline.build([], { renderer: "nope" });
  });

  test("item types narrow by their type field", () => {
    expectTypeOf<ItemOf<"tool-result">["callId"]>().toEqualTypeOf<string>();
    expectTypeOf<ItemOf<"assistant">["toolCalls"][number]["kind"]>().toEqualTypeOf<"tool" | "skill">();
    expectTypeOf<Item["role"]>().toEqualTypeOf<"user" | "assistant" | "system" | "tool">();
  });
});

describe("report and model limits", () => {
  test("report.allEntries is one read-only list of report entries", async () => {
    const { report } = await createPipeline().build([]);
    expectTypeOf(report.allEntries).toEqualTypeOf<ReadonlyArray<ReportEntry>>();
    expectTypeOf(report.entries).toEqualTypeOf<ReadonlyArray<ReportEntry>>();
  });

  test("every decision a report can give; a truncated entry says what was cut; offloaded holds the originals", async () => {
    expectTypeOf<Decision>().toEqualTypeOf<"kept" | "merged" | "dropped" | "repaired" | "synthesized" | "summarized" | "cleared" | "truncated">();
    expectTypeOf<ReportEntry["cut"]>().toEqualTypeOf<TextCut | undefined>();
    const { report } = await createPipeline().build([]);
    expectTypeOf(report.offloaded).toEqualTypeOf<ReadonlyArray<OffloadedText>>();
    expectTypeOf<OffloadedText>().toEqualTypeOf<{ readonly handle: string; readonly itemId: string; readonly text: string; readonly chars: number }>();
  });

  test("report.truncate takes the cut and the whole original; report.offload returns the handle", () => {
    createPipeline().hooks.compress.tap({ name: "Cutter" }, (items, context) => {
      expectTypeOf(context.report.truncate).toEqualTypeOf<(item: Item | string, reason: string, cut: TextCut, original: string) => void>();
      expectTypeOf(context.report.offload).toEqualTypeOf<(item: Item | string, text: string) => string>();
      expectTypeOf(context.report.as("part").truncate).toEqualTypeOf<(item: Item | string, reason: string, cut: TextCut, original: string) => void>();
      return items;
    });
  });

  test("a modelLimits tap gets the build's model and answers limits or undefined", () => {
    const pipeline = createPipeline();
    pipeline.hooks.modelLimits.tap({ name: "Limits" }, (request) => {
      expectTypeOf(request).toEqualTypeOf<ModelLimitsRequest>();
      expectTypeOf(request.model).toEqualTypeOf<string | undefined>();
      return request.model === "m" ? { contextWindow: 1000, maxInputTokens: 800 } : undefined;
    });
    expectTypeOf(pipeline.hooks.modelLimits.tap).parameter(1).returns.toEqualTypeOf<ModelLimits | undefined>();
    // @ts-expect-error the window is a number of tokens
    pipeline.hooks.modelLimits.tap({ name: "Wrong" }, () => ({ contextWindow: "128k" }));
  });
});

describe("lists made from lists", () => {
  test("notePrefix takes two item lists and a count; notedPrefix and sharedPrefixLength answer a count", async () => {
    const { notePrefix, notedPrefix, sharedPrefixLength } = await import("@ctxpipe/core");
    const before: ReadonlyArray<Item> = [];
    const after: Item[] = [...before];
    expectTypeOf(notePrefix(after, before, before.length)).toEqualTypeOf<void>();
    expectTypeOf(notedPrefix(after, before)).toEqualTypeOf<number>();
    expectTypeOf(sharedPrefixLength(after, before)).toEqualTypeOf<number>();
    // @ts-expect-error the count is a number
    notePrefix(after, before, "all");
    // @ts-expect-error lists, not one item
    notedPrefix(after[0]!, before);
  });
});
