// The compression chain used when none is given: the one ChatLoop, RunLoop and `ctxpipe build` run by
// default. Old tool results go first (they are the bulk of an agent's history, and a placeholder keeps
// each call paired with its result); then whole old turns slide out until the target is reached. No
// summarize step: it needs a summarizer, which is a model call the caller must choose.
import type { StrategyInput } from "./strategy-input.js";

export const DEFAULT_STRATEGIES: ReadonlyArray<StrategyInput> = Object.freeze(["clear-tool-results", "sliding-window"] as const);
