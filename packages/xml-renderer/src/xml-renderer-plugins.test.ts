import { createPipeline, importMemoryChunks } from "@ctxpipe/core";
import { describe, expect, test } from "vitest";
import { XmlRendererPlugin } from "./xml-renderer-plugin.js";
import { xmlRendererPlugins } from "./xml-renderer-plugins.js";

const chunks = () =>
  importMemoryChunks([
    { id: "sys", type: "SYSTEM", priority: 5, content: "Project: ctxpipe." },
    { id: "u", type: "AGENT", content: { role: "user", text: "Hi." } },
  ]);

describe("xmlRendererPlugins", () => {
  test("sends SYSTEM chunks as <system_context>, as includeSystem's default promises", async () => {
    const result = await createPipeline({ plugins: xmlRendererPlugins() }).build(chunks(), { renderer: "xml" });
    expect(result.request.messages[0]).toEqual({ role: "system", content: '<system_context id="sys" priority="5">\nProject: ctxpipe.\n</system_context>' });
    expect(result.excludedIds).toEqual([]);
  });

  test("the renderer alone sends them as core makes them, the plain system prompt, which is why the helper exists", async () => {
    const result = await createPipeline({ plugins: [new XmlRendererPlugin()] }).build(chunks(), { renderer: "xml" });
    expect(result.request.messages[0]).toEqual({ role: "system", content: "Project: ctxpipe." });
    expect(result.report.entries.find((entry) => entry.id === "sys")).toMatchObject({ decision: "merged", stage: "insert-system" });
  });

  test("passes its options to the renderer", async () => {
    const result = await createPipeline({ plugins: xmlRendererPlugins({ includeSystem: false }) }).build(chunks(), { renderer: "xml" });
    expect(result.report.entries.find((entry) => entry.id === "sys")).toMatchObject({ decision: "dropped", reason: "includeSystem is false" });
  });
});
