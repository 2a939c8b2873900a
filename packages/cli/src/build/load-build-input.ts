// Everything a build reads from disk or standard input, read and checked before the pipeline runs:
// the conversation, persisted summaries, the system prompt file and the JSON files of --run-context,
// --agent and --tools.
import type { Readable } from "node:stream";
import type { SummaryRecord } from "@ctxpipe/compression";
import { type BuildOptions, type Item, type ToolDefinitionInput, toolDefinitionSchema } from "@ctxpipe/core";
import type { BuildCommandOptions } from "../args/cli-options.js";
import { CliInputError, type CliInputProblem } from "../cli/cli-input-error.js";
import { formatFieldPath } from "../input/format-field-path.js";
import { importConversation } from "../input/import-conversation.js";
import { parseConversation } from "../input/parse-conversation.js";
import { parseJsonOption } from "../input/parse-json-option.js";
import { readSource, sourceName } from "../input/read-source.js";
import { checkSummaryRecords, parseSummaryRecords } from "../input/read-summary-records.js";

export interface BuildInput {
  /** How the conversation is named in messages: its path, or "standard input". */
  readonly source: string;
  /** What the conversation's records were read as (see --input-shape). */
  readonly shape: "stored" | "openai-responses";
  readonly items: ReadonlyArray<Item>;
  /** Where items[i] is in the source ("line 12", "index 3"). */
  readonly locations: ReadonlyArray<string>;
  /**
   * The conversation order: "input" for a @ctxpipe/store log, whose lines are in the order they were
   * written (processes with skewed clocks must not reorder it); "createdAt" for plain JSON and JSON lines.
   */
  readonly order: NonNullable<BuildOptions["order"]>;
  readonly summaries: ReadonlyArray<SummaryRecord>;
  readonly system: ReadonlyArray<{ readonly id: string; readonly text: string }>;
  readonly runContext: unknown;
  readonly agent: unknown;
  readonly tools: ReadonlyArray<ToolDefinitionInput> | undefined;
  readonly warnings: ReadonlyArray<string>;
}

export interface LoadProgress {
  readonly onBytes?: (read: number, total: number | undefined) => void;
  readonly onPhase?: (phase: string) => void;
}

async function readOptionFile(path: string, stdin: Readable): Promise<string> {
  if (path === "-") throw new CliInputError([{ source: "command line", message: "only the conversation can be read from standard input; give option files a path" }]);
  return readSource(path, stdin);
}

export async function loadBuildInput(options: BuildCommandOptions, stdin: Readable, progress: LoadProgress = {}): Promise<BuildInput> {
  const source = sourceName(options.input);
  const text = await readSource(options.input, stdin, (read) => progress.onBytes?.(read, undefined));
  progress.onPhase?.("parsing");
  const parsed = parseConversation(text, options.input, source, options.format);
  progress.onPhase?.("importing");
  const imported = importConversation(parsed.records, parsed.locations, source, options.inputShape);
  const summaries = checkSummaryRecords(parsed.summaries, source);
  if (options.summaries !== undefined) {
    const fromFile = parseSummaryRecords(await readOptionFile(options.summaries, stdin), options.summaries, `--summaries ${options.summaries}`);
    const ids = new Set(summaries.map((record) => record.id));
    const twice = fromFile.filter((record) => ids.has(record.id));
    if (twice.length > 0) {
      throw new CliInputError(twice.map((record) => ({ source: `--summaries ${options.summaries}`, id: record.id, field: "id", message: `the conversation log ${source} already has a summary record with this id` })));
    }
    summaries.push(...fromFile);
  }
  const system: { id: string; text: string }[] = [];
  if (options.system !== undefined) system.push({ id: "cli:system", text: options.system });
  if (options.systemFile !== undefined) system.push({ id: "cli:system-file", text: await readOptionFile(options.systemFile, stdin) });
  const runContext = options.runContext === undefined ? undefined : parseJsonOption(await readOptionFile(options.runContext, stdin), "--run-context", options.runContext);
  const agent = options.agent === undefined ? undefined : parseJsonOption(await readOptionFile(options.agent, stdin), "--agent", options.agent);
  const tools = options.tools === undefined ? undefined : checkTools(parseJsonOption(await readOptionFile(options.tools, stdin), "--tools", options.tools), `--tools ${options.tools}`);
  // Responses items carry no dates: the order they were stored in is the conversation's.
  const order = parsed.layout === "store-log" || imported.shape === "openai-responses" ? "input" : "createdAt";
  return { source, shape: imported.shape, items: imported.items, locations: imported.locations, order, summaries, system, runContext, agent, tools, warnings: parsed.warnings };
}

function checkTools(value: unknown, source: string): ToolDefinitionInput[] {
  if (!Array.isArray(value)) throw new CliInputError([{ source, message: "expected a JSON array of tool definitions { name, description?, parameters? }" }]);
  const problems: CliInputProblem[] = [];
  value.forEach((tool: unknown, index) => {
    const parsed = toolDefinitionSchema.safeParse(tool);
    if (parsed.success) return;
    const name = typeof (tool as { name?: unknown })?.name === "string" ? (tool as { name: string }).name : undefined;
    for (const issue of parsed.error.issues) {
      const field = formatFieldPath(issue.path);
      problems.push({ source, location: `index ${index}`, ...(name === undefined ? {} : { id: name }), ...(field === undefined ? {} : { field }), message: issue.message });
    }
  });
  if (problems.length > 0) throw new CliInputError(problems);
  return value as ToolDefinitionInput[];
}
