// What build() returns.
import type { BuildReport } from "./build-report.js";

/** What the build counted: items in and messages out, and the system prompt it sent. */
export interface BuildMetadata {
  /** Items given to build(). */
  readonly inputCount: number;
  /** Messages in the rendered request, the system message included. */
  readonly outputCount: number;
  /**
   * Items the filter stage removed. Following the context builder's stored-message rules, stored
   * system messages are skipped without being counted here (the system prompt is composed fresh);
   * the report still lists them as dropped.
   */
  readonly filteredCount: number;
  readonly systemPromptIncluded: boolean;
  /** Length in characters of the system prompt that was sent, 0 when none was. */
  readonly systemPromptLength: number;
}

export interface BuildResult<Request> {
  /** The provider request, ready to send. */
  readonly request: Request;
  /** Tokens of the rendered request. */
  readonly tokenCount: number;
  /**
   * Whether tokenCount is exact: the tokenizer is exact, and the renderer knew the size of every part
   * it sent (RenderResult.tokenCountExact; a Responses request sending reasoning back is an estimate).
   */
  readonly tokenCountExact: boolean;
  /** Input item ids whose content reaches the model, in output order. */
  readonly includedIds: ReadonlyArray<string>;
  /** Input item ids whose content does not (dropped, or replaced by a summary), in input order. */
  readonly excludedIds: ReadonlyArray<string>;
  readonly metadata: BuildMetadata;
  readonly report: BuildReport;
}
