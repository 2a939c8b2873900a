import { describe, expect, test } from "vitest";
import type { ItemInput } from "../model/item.js";
import { buildWith } from "../testing/index.js";
import { InsertSystemPlugin } from "./insert-system-plugin.js";

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

  test("no parts, no system message", async () => {
    const result = await buildWith([], chat);
    expect(result.request.messages).toEqual([{ role: "user", content: "hello" }]);
  });
});
