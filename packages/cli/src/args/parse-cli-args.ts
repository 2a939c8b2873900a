// Reads the command line into a CliCommand, refusing anything it does not know with a CliUsageError
// that names the option and the values it accepts.
import { parseArgs } from "node:util";
import { STRATEGY_NAMES, type StrategyName } from "@ctxpipe/compression";
import { SESSION_MODES, type SessionMode } from "@ctxpipe/system-prompt";
import { ENCODING_NAMES, type EncodingName } from "@ctxpipe/tokenizers";
import { CliUsageError } from "../cli/cli-usage-error.js";
import {
  type BuildCommandOptions,
  type CliCommand,
  DEFAULT_COMPRESSION,
  INPUT_FORMATS,
  INPUT_SHAPES,
  type InputFormat,
  type InputShape,
  PROVIDERS,
  type Provider,
  SUMMARIZERS,
  type SummarizerName,
} from "./cli-options.js";

const SHARED_OPTIONS = {
  provider: { type: "string" },
  model: { type: "string" },
  "max-tokens": { type: "string" },
  "reserve-output": { type: "string" },
  system: { type: "string" },
  "system-file": { type: "string" },
  compression: { type: "string", multiple: true },
  summaries: { type: "string" },
  summarizer: { type: "string" },
  "summarizer-model": { type: "string" },
  mode: { type: "string" },
  "run-context": { type: "string" },
  agent: { type: "string" },
  tools: { type: "string" },
  "prompt-cache-key": { type: "string" },
  "fallback-encoding": { type: "string" },
  format: { type: "string" },
  "input-shape": { type: "string" },
  report: { type: "boolean" },
  pretty: { type: "boolean" },
  "no-progress": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const INSPECT_OPTIONS = { ...SHARED_OPTIONS, html: { type: "string" }, all: { type: "boolean" } } as const;

export function parseCliArgs(argv: ReadonlyArray<string>): CliCommand {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h") return { name: "help", topic: undefined };
  if (first === "--version" || first === "-V") return { name: "version" };
  if (first === "help") {
    const topic = rest[0];
    if (topic === undefined) return { name: "help", topic: undefined };
    if (topic === "build" || topic === "inspect") return { name: "help", topic };
    throw new CliUsageError(`Unknown command "${topic}": ctxpipe has the commands build and inspect.`);
  }
  if (first !== "build" && first !== "inspect") {
    const hint = first.startsWith("-") ? "Put the command first: ctxpipe build [FILE] [options]." : 'Run "ctxpipe --help" to see them.';
    throw new CliUsageError(`Unknown command "${first}": ctxpipe has the commands build and inspect. ${hint}`);
  }
  const command = first;
  const values = readValues(command, rest);
  if (values.help === true) return { name: "help", topic: command };
  const positionals = values.positionals;
  if (positionals.length > 1) throw new CliUsageError(`ctxpipe ${command} reads one conversation; got ${positionals.length} files (${positionals.join(", ")}).`, command);
  const build = buildOptionsOf(command, values.options, positionals[0]);
  if (command === "build") return { name: "build", options: build };
  const html = values.options.html;
  if (html !== undefined && html.length === 0) throw new CliUsageError("--html needs the path of the page to write.", "inspect");
  if (html !== undefined && build.input !== "-" && html === build.input) throw new CliUsageError(`--html ${html} would overwrite the conversation it inspects.`, "inspect");
  return { name: "inspect", options: { ...build, html, all: values.options.all === true } };
}

type Values = Partial<Record<keyof typeof INSPECT_OPTIONS, string | boolean | string[]>> & { html?: string; all?: boolean };

function readValues(command: "build" | "inspect", args: ReadonlyArray<string>): { options: Values; positionals: string[]; help: boolean } {
  try {
    const parsed = parseArgs({ args: [...args], options: command === "inspect" ? INSPECT_OPTIONS : SHARED_OPTIONS, allowPositionals: true, strict: true });
    return { options: parsed.values as Values, positionals: parsed.positionals, help: parsed.values.help === true };
  } catch (error) {
    // parseArgs' messages name the option ("Unknown option '--foo'"); keep them, add the way out.
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, ".");
    throw new CliUsageError(`${message} Run "ctxpipe ${command} --help" for the options.`, command);
  }
}

function buildOptionsOf(command: "build" | "inspect", values: Values, input: string | undefined): BuildCommandOptions {
  const text = (name: keyof typeof SHARED_OPTIONS): string | undefined => {
    const value = values[name];
    if (typeof value !== "string") return undefined;
    if (value.length === 0) throw new CliUsageError(`--${name} needs a value.`, command);
    return value;
  };
  const choice = <T extends string>(name: keyof typeof SHARED_OPTIONS, allowed: ReadonlyArray<T>): T | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    if (!(allowed as ReadonlyArray<string>).includes(value)) throw new CliUsageError(`--${name} ${value}: expected one of ${allowed.join(", ")}.`, command);
    return value as T;
  };
  const integer = (name: keyof typeof SHARED_OPTIONS, minimum: number): number | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    const number = /^\d+$/.test(value.replaceAll("_", "")) ? Number(value.replaceAll("_", "")) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < minimum) throw new CliUsageError(`--${name} ${value}: expected a whole number of at least ${minimum}.`, command);
    return number;
  };
  const system = text("system");
  const systemFile = text("system-file");
  const mode = choice<SessionMode>("mode", SESSION_MODES);
  const runContext = text("run-context");
  if (runContext !== undefined && mode !== "run") throw new CliUsageError("--run-context is for run mode: add --mode run.", command);
  const summarizerModel = text("summarizer-model");
  const summarizer = choice<SummarizerName>("summarizer", SUMMARIZERS) ?? "extractive";
  if (summarizerModel !== undefined && summarizer !== "openai") throw new CliUsageError("--summarizer-model is for --summarizer openai.", command);
  return {
    input: input ?? "-",
    format: choice<InputFormat>("format", INPUT_FORMATS) ?? "auto",
    inputShape: choice<InputShape>("input-shape", INPUT_SHAPES) ?? "auto",
    provider: choice<Provider>("provider", PROVIDERS) ?? "openai",
    model: text("model") ?? "gpt-4o",
    maxTokens: integer("max-tokens", 1),
    reserveOutput: integer("reserve-output", 0),
    system,
    systemFile,
    compression: compressionOf(command, values.compression),
    summaries: text("summaries"),
    summarizer,
    summarizerModel,
    mode,
    runContext,
    agent: text("agent"),
    tools: text("tools"),
    promptCacheKey: text("prompt-cache-key"),
    fallbackEncoding: choice<EncodingName>("fallback-encoding", ENCODING_NAMES),
    report: values.report === true,
    pretty: values.pretty === true,
    progress: values["no-progress"] !== true,
  };
}

/** `--compression a,b` or `--compression a --compression b` chain strategies; `none` runs none. */
function compressionOf(command: "build" | "inspect", given: Values["compression"]): ReadonlyArray<StrategyName> | false {
  if (given === undefined) return DEFAULT_COMPRESSION;
  const names = (Array.isArray(given) ? given : [String(given)]).flatMap((value) => value.split(",")).map((name) => name.trim());
  if (names.includes("none")) {
    if (names.length > 1) throw new CliUsageError(`--compression none turns compression off; it cannot be chained with ${names.filter((name) => name !== "none").join(", ")}.`, command);
    return false;
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (!(STRATEGY_NAMES as ReadonlyArray<string>).includes(name)) {
      throw new CliUsageError(`--compression ${name || '""'}: expected one of ${STRATEGY_NAMES.join(", ")} (chained with commas), or none.`, command);
    }
    if (seen.has(name)) throw new CliUsageError(`--compression ${name} is given twice.`, command);
    seen.add(name);
  }
  return names as StrategyName[];
}
