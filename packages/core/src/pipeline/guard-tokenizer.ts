// Wraps a tokenizer so that a count() that throws or returns something that is not a token count is
// blamed on whoever supplied the tokenizer, not on the renderer that happened to call it. Wrappers are
// cached, so per-tokenizer token caches keep hitting across builds.
import { PluginError } from "../errors/plugin-error.js";
import type { Tokenizer } from "../spec/tokenizer.js";

const wrappers = new Map<string, WeakMap<Tokenizer, Tokenizer>>();

export function guardTokenizer(tokenizer: Tokenizer, supplier: string): Tokenizer {
  let bySupplier = wrappers.get(supplier);
  if (bySupplier === undefined) {
    bySupplier = new WeakMap();
    wrappers.set(supplier, bySupplier);
  }
  const existing = bySupplier.get(tokenizer);
  if (existing !== undefined) return existing;
  const guarded: Tokenizer = Object.freeze({
    specificationVersion: "v1",
    name: tokenizer.name,
    exact: tokenizer.exact,
    count(text: string): number {
      let count: unknown;
      try {
        count = tokenizer.count(text);
      } catch (error) {
        throw new PluginError(supplier, "tokenizer", error);
      }
      if (typeof count !== "number" || !Number.isInteger(count) || count < 0) {
        throw new PluginError(supplier, "tokenizer", new Error(`tokenizer "${tokenizer.name}" counted ${String(count)} tokens; a count is a non-negative integer`));
      }
      return count;
    },
  });
  bySupplier.set(tokenizer, guarded);
  return guarded;
}
