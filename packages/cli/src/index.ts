// @ctxpipe/cli: the `ctxpipe` command (build, inspect), and the same steps as functions for tools that
// want them in-process.
export {
  type BuildCommandOptions,
  type CliCommand,
  DEFAULT_COMPRESSION,
  INPUT_SHAPES,
  type InputShape,
  type InspectCommandOptions,
  PROVIDERS,
  type Provider,
} from "./args/cli-options.js";
export { parseCliArgs } from "./args/parse-cli-args.js";
export { buildConversation, type CliBuild, type PreviousTurn } from "./build/build-conversation.js";
export { type BuildOutput, buildOutputOf } from "./build/build-output.js";
export { createCliPipeline } from "./build/create-cli-pipeline.js";
export { type BuildInput, loadBuildInput } from "./build/load-build-input.js";
export { CLI_INPUT_INVALID, CliInputError, type CliInputProblem } from "./cli/cli-input-error.js";
export type { CliIo } from "./cli/cli-io.js";
export { CLI_USAGE, CliUsageError } from "./cli/cli-usage-error.js";
export { runCli } from "./cli/run-cli.js";
export { renderInspectionHtml } from "./inspect/html/render-inspection-html.js";
export type { BudgetSegment, BudgetSegmentKind, Inspection, InspectionBudget, SummaryView, TimelineRow } from "./inspect/inspection.js";
export { inspectionOf } from "./inspect/inspection-of.js";
export { renderTable } from "./inspect/render-table.js";
export { extractiveSummarizer } from "./summarize/extractive-summarizer.js";
