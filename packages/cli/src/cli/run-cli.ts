// The ctxpipe command: parses the command line, runs build or inspect, and turns every failure into a
// message on standard error and an exit status (0 built, 2 input rejected, 1 anything else).
import { readFile, writeFile } from "node:fs/promises";
import { CtxpipeError, type Item } from "@ctxpipe/core";
import type { BuildCommandOptions, InspectCommandOptions } from "../args/cli-options.js";
import { parseCliArgs } from "../args/parse-cli-args.js";
import { buildConversation, type CliBuild } from "../build/build-conversation.js";
import { buildOutputOf } from "../build/build-output.js";
import { createCliPipeline } from "../build/create-cli-pipeline.js";
import { loadBuildInput } from "../build/load-build-input.js";
import { takeOffloadDir } from "../build/offload-dir-option.js";
import { writeOffloadedTexts } from "../build/write-offloaded-texts.js";
import { SourceReadError } from "../input/read-source.js";
import { renderInspectionHtml } from "../inspect/html/render-inspection-html.js";
import { inspectionOf } from "../inspect/inspection-of.js";
import { renderTable } from "../inspect/render-table.js";
import { type Progress, progressDisplay, SILENT_PROGRESS } from "../progress/progress-display.js";
import { CliInputError } from "./cli-input-error.js";
import { type CliIo, processIo } from "./cli-io.js";
import { CliUsageError } from "./cli-usage-error.js";
import { BUILD_USAGE, INSPECT_USAGE, MAIN_USAGE } from "./usage-text.js";

/** How far along each step of a build is, for the progress line. */
const STEP_FRACTIONS: Readonly<Record<string, number>> = {
  parsing: 0.2,
  importing: 0.3,
  compress: 0.4,
  filter: 0.6,
  "repair-orphans": 0.65,
  "insert-system": 0.7,
};

export async function runCli(argv: ReadonlyArray<string>, io: CliIo = processIo()): Promise<number> {
  let progress: Progress = SILENT_PROGRESS;
  try {
    const { argv: rest, offloadDir } = takeOffloadDir(argv);
    const command = parseCliArgs(rest);
    switch (command.name) {
      case "help":
        io.stdout.write(command.topic === "build" ? BUILD_USAGE : command.topic === "inspect" ? INSPECT_USAGE : MAIN_USAGE);
        return 0;
      case "version":
        io.stdout.write(`${await version()}\n`);
        return 0;
      case "build":
      case "inspect": {
        const options = command.options;
        if (options.input === "-" && io.stdin.isTTY === true) {
          throw new CliUsageError(`No conversation to read: give a FILE, or pipe one into standard input (ctxpipe ${command.name} conversation.jsonl).`, command.name);
        }
        progress = options.progress && io.stderr.isTTY === true ? progressDisplay(io.stderr) : SILENT_PROGRESS;
        const build = await runBuild(options, io, progress, command.name === "inspect" || options.report);
        progress.done();
        for (const warning of build.input.warnings) io.stderr.write(`ctxpipe: warning: ${warning}\n`);
        if (offloadDir !== undefined) {
          const { written, kept } = await writeOffloadedTexts(offloadDir, build.result.report.offloaded);
          io.stderr.write(`ctxpipe: wrote ${written} offloaded ${written === 1 ? "text" : "texts"} to ${offloadDir}${kept === 0 ? "" : ` (${kept} already there)`}\n`);
        }
        if (command.name === "build") {
          io.stdout.write(`${JSON.stringify(buildOutputOf(build, options.report), null, options.pretty ? 2 : undefined)}\n`);
        } else {
          await writeInspection(build, command.options, io);
        }
        return 0;
      }
    }
  } catch (error) {
    progress.done();
    return reportFailure(error, io);
  }
}

async function runBuild(options: BuildCommandOptions, io: CliIo, progress: Progress, compareWithPreviousTurn: boolean): Promise<CliBuild> {
  progress.update("reading", 0.05);
  const input = await loadBuildInput(options, io.stdin, {
    onBytes: (read) => progress.update(`reading (${(read / 1e6).toFixed(1)} MB)`, 0.1),
    onPhase: (phase) => progress.update(phase, STEP_FRACTIONS[phase]),
  });
  const pipeline = createCliPipeline(options, {
    env: io.env,
    now: newestTimeOf(input.items),
    onStage: (stage) => progress.update(`building: ${stage}`, STEP_FRACTIONS[stage]),
  });
  return buildConversation(pipeline, options, input, compareWithPreviousTurn);
}

/** The newest createdAt of the conversation, as the clock of summary records made in the build. */
function newestTimeOf(items: ReadonlyArray<Item>): (() => number) | undefined {
  let newest: number | undefined;
  for (const item of items) {
    const time = item.createdAt === undefined ? Number.NaN : Date.parse(item.createdAt);
    if (Number.isFinite(time) && (newest === undefined || time > newest)) newest = time;
  }
  return newest === undefined ? undefined : () => newest;
}

async function writeInspection(build: CliBuild, options: InspectCommandOptions, io: CliIo): Promise<void> {
  const title = build.input.source;
  const inspection = inspectionOf(build, title);
  if (options.html === undefined) {
    io.stdout.write(renderTable(inspection, { all: options.all, columns: io.columns ?? Number.POSITIVE_INFINITY }));
    return;
  }
  try {
    await writeFile(options.html, renderInspectionHtml(inspection));
  } catch (error) {
    throw new Error(`Cannot write ${options.html}: ${(error as Error).message}`, { cause: error });
  }
  io.stderr.write(`ctxpipe: wrote ${options.html} (${inspection.timeline.length} items, ${inspection.tokenCount} tokens of ${inspection.budget.available} available)\n`);
}

function reportFailure(error: unknown, io: CliIo): number {
  if (error instanceof CliUsageError || error instanceof CliInputError) {
    io.stderr.write(`ctxpipe: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof SourceReadError || CtxpipeError.isInstance(error)) {
    io.stderr.write(`ctxpipe: ${(error as Error).message}\n`);
    return 1;
  }
  // Not one of ours: a bug, so the stack helps whoever reports it.
  io.stderr.write(`ctxpipe: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}

async function version(): Promise<string> {
  const manifest = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return manifest.version;
}
