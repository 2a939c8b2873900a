// The compression chain used when none is given: the one ChatLoop, RunLoop and `ctxpipe build` run by
// default. A tool result (or a text) over its cap is cut to its head and tail in every build, the
// current turn's too, so one giant output never costs a turn. Once triggered, old tool results are
// cleared (the bulk of an agent's history; a placeholder keeps each call paired with its result),
// then whole old turns slide out until the target is reached. No summarize step: it needs a summarizer, which is a model call the caller must choose.
import type { StrategyInput } from "./strategy-input.js";

export const DEFAULT_STRATEGIES: ReadonlyArray<StrategyInput> = Object.freeze(["truncate-tool-results", "clear-tool-results", "sliding-window"] as const);
