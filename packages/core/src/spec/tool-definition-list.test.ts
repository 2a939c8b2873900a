import { describe, expect, test } from "vitest";
import { PluginOptionsError } from "../errors/plugin-options-error.js";
import { createPipeline } from "../pipeline/pipeline.js";
import { wordTokenizer } from "../testing/index.js";

const hi = [{ id: "u", type: "user" as const, text: "hi" }];
const tool = (name: string, description?: string) => ({ name, ...(description === undefined ? {} : { description }), parameters: { type: "object", properties: {} } });

describe("a build's tools", () => {
  test("two tools of one name are refused, naming both: the model could not tell which it calls", async () => {
    const error = await createPipeline()
      .build(hi, { tokenizer: wordTokenizer, tools: [tool("search", "Search the web."), tool("read_file"), tool("search", "Search the docs.")] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PluginOptionsError);
    expect((error as Error).message).toContain('tools[0] is already named "search": each tool needs a name of its own\n  → at tools[2].name');
  });

  test("every later copy is named, each with the first of its name", async () => {
    const error = await createPipeline()
      .build(hi, { tokenizer: wordTokenizer, tools: [tool("a"), tool("b"), tool("a"), tool("b"), tool("a")] })
      .catch((caught: unknown) => caught as Error);
    const named = [...(error as Error).message.matchAll(/tools\[(\d)\] is already named "(\w)": each tool needs a name of its own\n {2}→ at tools\[(\d)\]\.name/g)].map((match) => match.slice(1));
    expect(named).toEqual([
      ["0", "a", "2"],
      ["1", "b", "3"],
      ["0", "a", "4"],
    ]);
  });

  test("names that differ only in case are different names, and are taken", async () => {
    const result = await createPipeline().build(hi, { tokenizer: wordTokenizer, tools: [tool("search"), tool("Search")] });
    expect(result.request.tools?.map((entry) => entry.function.name)).toEqual(["search", "Search"]);
  });
});
