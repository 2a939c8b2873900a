// Golden files: the exact text the XML renderer sends for seed 001's chunks and for core's fixtures.
import { InsertSystemPlugin, importMemoryChunks } from "@ctxpipe/core";
import { buildWith, everyItemTypeFixture, toolLoopFixture } from "@ctxpipe/core/testing";
import { describe, expect, test } from "vitest";
import { SEED_001_CHUNKS, SEED_001_TAGS } from "./__fixtures__/seed-001-chunks.js";
import { openingTags, transcript } from "./__fixtures__/transcript.js";
import { renderXmlMessages } from "./render-xml-messages.js";
import { XmlRendererPlugin } from "./xml-renderer-plugin.js";

// Stored SYSTEM chunks are seed 001's system_context; core's default filter drops stored system
// messages, so these builds keep them, as a seed 001 application would.
const keepSystemChunks = () => new InsertSystemPlugin({ storedSystemMessages: "keep" });

describe("XmlRendererPlugin golden files", () => {
  test.for([
    { name: "seed 001's chunks, every tag and variant", file: "seed-001-chunks.xml.txt", items: () => importMemoryChunks(SEED_001_CHUNKS) },
    { name: "one item of every type", file: "every-item-type.xml.txt", items: everyItemTypeFixture },
    { name: "a parallel tool loop", file: "tool-loop.xml.txt", items: toolLoopFixture },
  ])("renders $name", async ({ file, items }) => {
    const result = await buildWith([keepSystemChunks(), new XmlRendererPlugin()], items(), { renderer: "xml", system: "You are a careful engineer." });
    await expect(transcript(result.request)).toMatchFileSnapshot(`__fixtures__/${file}`);
    expect(result.report.violations).toEqual([]);
    expect(result.report.repairedViolations).toEqual([]);
  });

  test("the seed 001 golden file holds every tag of seed 001", async () => {
    // The rendering the golden file is compared with; checked here rather than read from the file,
    // so a missing golden file cannot pass this test.
    const result = await buildWith([keepSystemChunks(), new XmlRendererPlugin()], importMemoryChunks(SEED_001_CHUNKS), { renderer: "xml" });
    const golden = transcript(result.request);
    expect(new Set(openingTags(golden))).toEqual(new Set(SEED_001_TAGS));
    // Both variants of tool_result: success and error.
    expect(golden).toContain('success="true">');
    expect(golden).toContain('success="false" error="true">');
  });

  test("without the pipeline, seed 001's chunks render to the same messages, minus the system prompt and the closing user turn", async () => {
    const items = importMemoryChunks(SEED_001_CHUNKS);
    const piped = await buildWith([keepSystemChunks(), new XmlRendererPlugin()], items, { renderer: "xml" });
    const pure = renderXmlMessages(items).request;
    // The pipeline appends a synthesized "Continue." user turn: providers want the last turn from the user.
    expect(piped.request.messages.slice(0, -1)).toEqual(pure.messages);
    expect(piped.report.synthesized.map((entry) => entry.id)).toEqual(["ctxpipe:continue"]);
  });
});
