import { describe, expect, test } from "vitest";
import type { Item, ItemInput } from "../model/item.js";
import { parseItems } from "../model/parse-items.js";
import { wordTokenizer } from "../testing/index.js";
import type { PipelinePlugin, PluginHost } from "./pipeline-hooks.js";
import { createPipeline } from "./pipeline.js";
import { type PolicyView, policyViewOf } from "./policy-view.js";
import { STAGE } from "./stage.js";
import type { StageContext } from "./stage-context.js";
import { SYSTEM_PROMPT_ID } from "./system-prompt-id.js";

type Hook = "filter" | "repairOrphans" | "insertSystem";

/** Rewrites "SECRET" to "[redacted]" in user text, on the given stage, and counts its calls. */
function redaction(hook: Hook): PipelinePlugin & { calls: number } {
  const plugin = {
    name: `Redact-${hook}`,
    calls: 0,
    apply(pipeline: PluginHost) {
      pipeline.hooks[hook].tap({ name: plugin.name }, (items, context) => {
        plugin.calls++;
        return items.map((item): Item => {
          if (item.type !== "user" || !item.text.includes("SECRET")) return item;
          context.report.repair(item, "redacted a secret");
          return { ...item, text: item.text.replaceAll("SECRET", "[redacted]") };
        });
      });
    },
  };
  return plugin;
}

/** A compress tap that asks for the policy view, as a summarizing strategy would. */
function viewer(): PipelinePlugin & { views: PolicyView[] } {
  const plugin = {
    name: "Viewer",
    views: [] as PolicyView[],
    apply(pipeline: PluginHost) {
      pipeline.hooks.compress.tapPromise({ name: "Viewer" }, async (_items, context) => {
        plugin.views.push(await policyViewOf(context));
        // Asked twice: computed once.
        plugin.views.push(await policyViewOf(context));
      });
    },
  };
  return plugin;
}

const ITEMS: ItemInput[] = [
  { id: "stored-system", type: "system", text: "Stored instructions." },
  { id: "u1", type: "user", text: "My SSN is SECRET." },
  { id: "hidden", type: "user", text: "Internal note: SECRET", metadata: { includeInContext: false } },
  { id: "a1", type: "assistant", text: "Noted." },
  { id: "u2", type: "user", text: "What next?" },
];

describe("policyViewOf", () => {
  test.each<{ hook: Hook }>([{ hook: "filter" }, { hook: "repairOrphans" }, { hook: "insertSystem" }])(
    "a compress tap sees what the later stages send: left-out items absent, a $hook redaction applied",
    async ({ hook }) => {
      const redact = redaction(hook);
      const view = viewer();
      const result = await createPipeline({ plugins: [view, redact] }).build(ITEMS, { tokenizer: wordTokenizer, system: "Be brief." });
      const [first, second] = view.views;
      expect(second).toBe(first);
      // Stored system messages give way to the composed prompt; the excluded message is left out.
      expect(first!.items.map((item) => item.id)).toEqual([SYSTEM_PROMPT_ID, "u1", "a1", "u2"]);
      expect(first!.sentFormOf("u1")).toMatchObject({ id: "u1", text: "My SSN is [redacted]." });
      expect(first!.sentFormOf("hidden")).toBeUndefined();
      expect(first!.sentFormOf("stored-system")).toBeUndefined();
      // Unchanged items are the build's own objects.
      const [, , , a1] = parseItems(ITEMS);
      expect(first!.sentFormOf("a1")).toEqual(a1);
      // Silent: the report holds the redaction once, from the build's own run of the stage.
      expect(redact.calls).toBe(2);
      expect(result.report.entries.find((entry) => entry.id === "u1")!.history).toEqual([
        { decision: "repaired", stage: { filter: "filter", repairOrphans: "repair-orphans", insertSystem: "insert-system" }[hook], plugin: `Redact-${hook}`, reason: "redacted a secret" },
      ]);
      expect(result.report.warnings).toEqual([]);
    },
  );

  test("computed once per build, however many attempts the budget takes", async () => {
    const redact = redaction("filter");
    const view = viewer();
    const long = Array.from({ length: 30 }, (_, index): ItemInput[] => [
      { id: `q${index}`, type: "user", text: `question ${index} `.repeat(20) },
      { id: `r${index}`, type: "assistant", text: `answer ${index} `.repeat(20) },
    ]).flat();
    const result = await createPipeline({ plugins: [view, redact] }).build(long, { tokenizer: wordTokenizer, maxTokens: 400 });
    const attempts = result.report.budget!.attempts;
    expect(view.views).toHaveLength(2 * attempts);
    expect(new Set(view.views).size).toBe(1);
    expect(redact.calls).toBe(attempts + 1);
  });

  test("made from the list the asking compress tap received: a compress redaction ahead of it is in the view", async () => {
    const early: PipelinePlugin = {
      name: "RedactEarly",
      apply(pipeline) {
        pipeline.hooks.compress.tap({ name: "RedactEarly", stage: STAGE.FIRST }, (items, context) =>
          items.map((item): Item => {
            if (item.type !== "user" || !item.text.includes("SECRET")) return item;
            context.report.repair(item, "redacted a secret");
            return { ...item, text: item.text.replaceAll("SECRET", "[redacted]") };
          }),
        );
      },
    };
    const view = viewer();
    await createPipeline({ plugins: [early, view] }).build(ITEMS, { tokenizer: wordTokenizer });
    expect(view.views[0]!.sentFormOf("u1")).toMatchObject({ text: "My SSN is [redacted]." });
    expect(view.views[0]!.sentFormOf("hidden")).toBeUndefined();
  });

  test("a context the pipeline did not make: items excluded from context and stored system messages are left out", async () => {
    const inputItems = parseItems(ITEMS);
    const view = await policyViewOf({ inputItems } as unknown as StageContext);
    expect(view.items.map((item) => item.id)).toEqual(["u1", "a1", "u2"]);
  });

  test("a context made from the build's with Object.create finds the build's view", async () => {
    let seen: PolicyView | undefined;
    const plugin: PipelinePlugin = {
      name: "Scoped",
      apply(pipeline) {
        pipeline.hooks.compress.tapPromise({ name: "Scoped" }, async (_items, context) => {
          seen = await policyViewOf(Object.create(context) as StageContext);
        });
      },
    };
    await createPipeline({ plugins: [plugin, redaction("filter")] }).build(ITEMS, { tokenizer: wordTokenizer });
    expect(seen!.sentFormOf("u1")).toMatchObject({ text: "My SSN is [redacted]." });
    expect(seen!.sentFormOf("hidden")).toBeUndefined();
  });
});
