// The shortest prefix Anthropic caches, per model: a breakpoint on a shorter prefix is accepted but
// nothing is cached (no error, no cache write). Anthropic's prompt caching guide lists the figures;
// they are quoted here as gateways that follow it publish them (docs.orq.ai "Prompt caching",
// docs.litellm.ai "Prompt Caching", both 2026): 4,096 for Claude Opus 4.5, 4.6 and 4.7 and Haiku 4.5;
// 2,048 for Sonnet 4.6 (litellm groups it with Sonnet 4.x at 1,024: the higher figure is kept, as a
// breakpoint skipped wrongly costs less than one that caches nothing) and the Haiku 3 models; 512
// for Opus 5, Fable 5 and Mythos 5; 1,024 for the other Sonnet and Opus models and Claude 3.

/** Model name prefixes and their minimum, most specific first. */
const MINIMUMS: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ["claude-opus-4-5", 4096],
  ["claude-opus-4-6", 4096],
  ["claude-opus-4-7", 4096],
  ["claude-haiku-4-5", 4096],
  ["claude-sonnet-4-6", 2048],
  ["claude-3-haiku", 2048],
  ["claude-3-5-haiku", 2048],
  ["claude-opus-5", 512],
  ["claude-fable-5", 512],
  ["claude-mythos-5", 512],
  ["claude-sonnet-5", 1024],
  ["claude-sonnet-4", 1024],
  ["claude-opus-4", 1024],
  ["claude-3", 1024],
];

/** For a model not listed (or none named): the figure of most Sonnet and Opus models. */
export const DEFAULT_MINIMUM_CACHEABLE_TOKENS = 1024;
/** The smallest figure of any model: below it, no model caches. */
export const SMALLEST_MINIMUM_CACHEABLE_TOKENS = 512;

/** The figure listed for the model, or undefined for a model not listed; a dated name ("claude-opus-4-5-20251101") counts as its model. */
export function listedMinimumCacheableTokens(model: string | undefined): number | undefined {
  if (model === undefined) return undefined;
  const name = model.toLowerCase().replace(/^anthropic[./]/u, "");
  for (const [prefix, tokens] of MINIMUMS) if (name === prefix || name.startsWith(`${prefix}-`) || name.startsWith(`${prefix}@`)) return tokens;
  return undefined;
}

/** The shortest prefix, in tokens, that the model caches: its listed figure, else 1,024. */
export function anthropicMinimumCacheableTokens(model: string | undefined): number {
  return listedMinimumCacheableTokens(model) ?? DEFAULT_MINIMUM_CACHEABLE_TOKENS;
}
