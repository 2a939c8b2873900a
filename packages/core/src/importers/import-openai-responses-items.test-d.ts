import type { ResponseInputItem, ResponseOutputItem } from "openai/resources/responses/responses";
import { describe, expectTypeOf, test } from "vitest";
import { type ImportOpenAIResponsesItemsOptions, type Item, importOpenAIResponsesItems, type OpenAIResponsesExtra, openAIResponsesExtraOf } from "../index.js";

describe("importOpenAIResponsesItems", () => {
  test("takes what the SDK's request input and response output hold, and gives items", () => {
    const stored: Array<ResponseInputItem | ResponseOutputItem> = [];
    expectTypeOf(importOpenAIResponsesItems(stored)).toEqualTypeOf<Item[]>();
    // Stored records are read back from JSON: anything is accepted, and checked at run time.
    expectTypeOf(importOpenAIResponsesItems).parameter(0).toEqualTypeOf<unknown>();
  });

  test("its only option is the id prefix", () => {
    expectTypeOf<ImportOpenAIResponsesItemsOptions>().toEqualTypeOf<{ idPrefix?: string | undefined }>();
    // @ts-expect-error: the Anthropic importer's system option is not one of its
    importOpenAIResponsesItems([], { system: "x" });
  });

  test("what it keeps for the Responses renderer is read with openAIResponsesExtraOf", () => {
    const [item] = importOpenAIResponsesItems([]);
    if (item !== undefined) expectTypeOf(openAIResponsesExtraOf(item)).toEqualTypeOf<OpenAIResponsesExtra | undefined>();
  });
});
