/**
 * Runs `compute` on the first call and returns (or rethrows) that outcome on every later one. Tests
 * call it instead of a beforeAll hook so a failing setup fails each test that needed it, rather than
 * leaving them reported as skipped.
 */
export function once<T>(compute: () => T): () => T {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  return () => {
    if (outcome === undefined) {
      try {
        outcome = { ok: true, value: compute() };
      } catch (error) {
        outcome = { ok: false, error };
      }
    }
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  };
}
