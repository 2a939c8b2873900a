// What `ctxpipe build` prints: one JSON object, the request first.
import type { BuildReport } from "@ctxpipe/core";
import type { CliBuild } from "./build-conversation.js";

export interface BuildOutput {
  /** The provider's request body: ready to POST. */
  readonly request: unknown;
  readonly tokenCount: number;
  readonly tokenCountExact: boolean;
  /** Input message ids whose content reaches the model, in request order. */
  readonly includedIds: ReadonlyArray<string>;
  /** Input message ids whose content does not (dropped, or replaced by a summary), in input order. */
  readonly excludedIds: ReadonlyArray<string>;
  /** With --report: what happened to every message, by which stage and plugin, and why. */
  readonly report?: BuildReport;
}

export function buildOutputOf(build: CliBuild, withReport: boolean): BuildOutput {
  const { result } = build;
  return {
    request: build.request,
    tokenCount: result.tokenCount,
    tokenCountExact: result.tokenCountExact,
    includedIds: result.includedIds,
    excludedIds: result.excludedIds,
    ...(withReport ? { report: result.report } : {}),
  };
}
