import { describe, expectTypeOf, it } from "vitest";
import {
  type BuildInput,
  type BuildOutput,
  type CliCommand,
  type CliInputProblem,
  type INPUT_SHAPES,
  type Inspection,
  type InputShape,
  inspectionOf,
  parseCliArgs,
  renderInspectionHtml,
  renderTable,
  runCli,
} from "./index.js";

describe("@ctxpipe/cli public types", () => {
  it("runCli resolves to the exit status", () => {
    expectTypeOf(runCli).parameter(0).toEqualTypeOf<ReadonlyArray<string>>();
    expectTypeOf(runCli).returns.toEqualTypeOf<Promise<number>>();
  });

  it("parseCliArgs tells the commands apart by name", () => {
    const command = parseCliArgs(["inspect", "c.jsonl"]);
    expectTypeOf(command).toEqualTypeOf<CliCommand>();
    if (command.name === "inspect") {
      expectTypeOf(command.options.html).toEqualTypeOf<string | undefined>();
      expectTypeOf(command.options.provider).toEqualTypeOf<"openai" | "openai-responses" | "anthropic" | "gemini" | "xml">();
      expectTypeOf(command.options.inputShape).toEqualTypeOf<"auto" | "stored" | "openai-responses">();
      expectTypeOf(command.options.compression).toEqualTypeOf<ReadonlyArray<"truncate-tool-results" | "sliding-window" | "clear-tool-results" | "summarize" | "priority"> | false>();
    }
    if (command.name === "build") {
      // @ts-expect-error: --html is inspect's
      command.options.html;
    }
  });

  it("the inspection is plain data drawn as text or HTML", () => {
    expectTypeOf(inspectionOf).returns.toEqualTypeOf<Inspection>();
    expectTypeOf(renderInspectionHtml).toEqualTypeOf<(inspection: Inspection) => string>();
    expectTypeOf(renderTable).parameter(1).toEqualTypeOf<{ readonly all: boolean; readonly columns: number }>();
    expectTypeOf<Inspection["budget"]["segments"][number]["kind"]>().toEqualTypeOf<"system" | "user" | "assistant" | "tool-results" | "summaries" | "other" | "overhead" | "reserved-output" | "free">();
  });

  it("the input shape a conversation was read as", () => {
    expectTypeOf<BuildInput["shape"]>().toEqualTypeOf<"stored" | "openai-responses">();
    expectTypeOf<InputShape>().toEqualTypeOf<(typeof INPUT_SHAPES)[number]>();
  });

  it("build output and problems", () => {
    expectTypeOf<BuildOutput["tokenCountExact"]>().toEqualTypeOf<boolean>();
    expectTypeOf<CliInputProblem>().toHaveProperty("location").toEqualTypeOf<string | undefined>();
  });
});
