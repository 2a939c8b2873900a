import { DEFAULT_STRATEGIES, STRATEGY_NAMES } from "@ctxpipe/compression";
import { describe, expect, it } from "vitest";
import { CliUsageError } from "../cli/cli-usage-error.js";
import { DEFAULT_COMPRESSION } from "./cli-options.js";
import { parseCliArgs } from "./parse-cli-args.js";

const usageError = (argv: string[]) => {
  try {
    parseCliArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(CliUsageError);
    return (error as CliUsageError).message;
  }
  throw new Error(`expected ${argv.join(" ")} to be refused`);
};

describe("parseCliArgs", () => {
  it("reads build with its defaults: standard input, openai, gpt-4o, the loops' compression chain", () => {
    expect(parseCliArgs(["build"])).toEqual({
      name: "build",
      options: {
        input: "-",
        format: "auto",
        inputShape: "auto",
        provider: "openai",
        model: "gpt-4o",
        maxTokens: undefined,
        reserveOutput: undefined,
        system: undefined,
        systemFile: undefined,
        compression: DEFAULT_COMPRESSION,
        summaries: undefined,
        summarizer: "extractive",
        summarizerModel: undefined,
        mode: undefined,
        runContext: undefined,
        agent: undefined,
        tools: undefined,
        promptCacheKey: undefined,
        fallbackEncoding: undefined,
        report: false,
        pretty: false,
        progress: true,
      },
    });
  });

  it("compresses by default with the loops' chain: compression's DEFAULT_STRATEGIES itself, all names", () => {
    expect(DEFAULT_COMPRESSION).toBe(DEFAULT_STRATEGIES);
    expect(DEFAULT_COMPRESSION.every((name) => typeof name === "string" && (STRATEGY_NAMES as ReadonlyArray<string>).includes(name))).toBe(true);
    expect((parseCliArgs(["inspect"]) as { options: { compression: unknown } }).options.compression).toBe(DEFAULT_STRATEGIES);
  });

  it("reads every option of inspect", () => {
    const command = parseCliArgs([
      "inspect", "c.jsonl", "--input-shape", "openai-responses", "--provider", "anthropic", "--model", "claude-sonnet-4-5", "--max-tokens", "200_000", "--reserve-output", "8000",
      "--system", "Be brief.", "--system-file", "p.md", "--compression", "clear-tool-results,summarize", "--summaries", "s.json",
      "--summarizer", "openai", "--summarizer-model", "gpt-4o-mini", "--mode", "run", "--run-context", "r.json", "--agent", "a.json",
      "--tools", "t.json", "--prompt-cache-key", "conversation-42", "--fallback-encoding", "cl100k_base", "--format", "jsonl", "--report", "--pretty", "--no-progress", "--html", "out.html", "--all",
    ]);
    expect(command).toEqual({
      name: "inspect",
      options: {
        input: "c.jsonl", format: "jsonl", inputShape: "openai-responses", provider: "anthropic", model: "claude-sonnet-4-5", maxTokens: 200_000, reserveOutput: 8000,
        system: "Be brief.", systemFile: "p.md", compression: ["clear-tool-results", "summarize"], summaries: "s.json", summarizer: "openai",
        summarizerModel: "gpt-4o-mini", mode: "run", runContext: "r.json", agent: "a.json", tools: "t.json", promptCacheKey: "conversation-42", fallbackEncoding: "cl100k_base",
        report: true, pretty: true, progress: false, html: "out.html", all: true,
      },
    });
  });

  it("takes openai-responses as a provider and as an input shape", () => {
    expect(parseCliArgs(["build", "--provider", "openai-responses", "--input-shape", "stored"])).toMatchObject({ options: { provider: "openai-responses", inputShape: "stored" } });
  });

  it("chains --compression given several times, and none turns it off", () => {
    expect(parseCliArgs(["build", "--compression", "priority", "--compression", "sliding-window"])).toMatchObject({ options: { compression: ["priority", "sliding-window"] } });
    expect(parseCliArgs(["build", "--compression", "none"])).toMatchObject({ options: { compression: false } });
  });

  it("accepts truncate-tool-results, alone or chained", () => {
    expect(parseCliArgs(["build", "--compression", "truncate-tool-results"])).toMatchObject({ options: { compression: ["truncate-tool-results"] } });
    expect(parseCliArgs(["inspect", "--compression", "truncate-tool-results,sliding-window"])).toMatchObject({ options: { compression: ["truncate-tool-results", "sliding-window"] } });
  });

  it("answers help and version", () => {
    expect(parseCliArgs([])).toEqual({ name: "help", topic: undefined });
    expect(parseCliArgs(["--help"])).toEqual({ name: "help", topic: undefined });
    expect(parseCliArgs(["help", "inspect"])).toEqual({ name: "help", topic: "inspect" });
    expect(parseCliArgs(["build", "-h"])).toEqual({ name: "help", topic: "build" });
    expect(parseCliArgs(["--version"])).toEqual({ name: "version" });
  });

  it.each([
    [["frobnicate"], /Unknown command "frobnicate"/],
    [["--model", "gpt-4o"], /Unknown command "--model".*Put the command first/],
    [["build", "--frob"], /Unknown option '--frob'.*ctxpipe build --help/],
    [["build", "--html", "x.html"], /Unknown option '--html'/],
    [["build", "a.jsonl", "b.jsonl"], /reads one conversation; got 2 files/],
    [["build", "--provider", "bedrock"], /--provider bedrock: expected one of openai, openai-responses, anthropic, gemini, xml/],
    [["build", "--input-shape", "chat"], /--input-shape chat: expected one of auto, stored, openai-responses/],
    [["build", "--max-tokens", "12k"], /--max-tokens 12k: expected a whole number of at least 1/],
    [["build", "--max-tokens", "0"], /--max-tokens 0: expected a whole number of at least 1/],
    [["build", "--reserve-output", "-5"], /--reserve-output/],
    [["build", "--compression", "zip"], /--compression zip: expected one of sliding-window, clear-tool-results, summarize, priority, truncate-tool-results \(chained/],
    [["build", "--compression", "none,summarize"], /cannot be chained with summarize/],
    [["build", "--compression", "summarize,summarize"], /--compression summarize is given twice/],
    [["build", "--run-context", "r.json"], /--run-context is for run mode: add --mode run/],
    [["build", "--mode", "chat", "--run-context", "r.json"], /--run-context is for run mode/],
    [["build", "--summarizer-model", "x"], /--summarizer-model is for --summarizer openai/],
    [["build", "--model", ""], /--model needs a value/],
    [["inspect", "c.json", "--html", "c.json"], /would overwrite the conversation it inspects/],
  ])("refuses %j", (argv, message) => {
    expect(usageError(argv)).toMatch(message);
  });
});
