import { tool } from "langchain";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { toolDefinitionsOf } from "./tool-definitions.js";

describe("toolDefinitionsOf", () => {
  test("a LangChain tool counts as its name, description and the JSON schema of its zod schema; provider tools are left out", () => {
    const search = tool(async () => "", { name: "search", description: "Search the web", schema: z.object({ q: z.string(), limit: z.number().optional() }) });
    const plain = { name: "lookup", description: "Look a word up", parameters: { type: "object", properties: { word: { type: "string" } } } };
    const definitions = toolDefinitionsOf([search, { type: "web_search_20250305" }, plain, { name: "bad name!" }]);
    expect(definitions.map((definition) => definition.name)).toEqual(["search", "lookup"]);
    expect(definitions[0]).toMatchObject({ description: "Search the web", parameters: { type: "object", properties: { q: { type: "string" }, limit: { type: "number" } }, required: ["q"] } });
    expect(definitions[1]).toEqual(plain);
  });

  test("gives the same definition objects for the same tools", () => {
    const search = tool(async () => "", { name: "search", schema: z.object({ q: z.string() }) });
    expect(toolDefinitionsOf([search])[0]).toBe(toolDefinitionsOf([search])[0]);
  });
});
