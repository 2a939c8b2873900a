// Arbitrary importer input for property tests: records made of the field names and labels an importer
// reads, holding any JSON or nested records (what most likely reaches a TypeError), or plain JSON.
import fc from "fast-check";
import { CtxpipeError } from "../../errors/ctxpipe-error.js";

export function arbitraryInput(keys: ReadonlyArray<string>, labels: ReadonlyArray<string>): fc.Arbitrary<unknown> {
  const tree = fc.letrec<{ value: unknown; record: Record<string, unknown> }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.jsonValue({ maxDepth: 1 }),
      fc.constantFrom(...labels),
      fc.array(tie("value"), { maxLength: 3 }),
      tie("record"),
    ),
    record: fc.dictionary(fc.constantFrom(...keys), tie("value"), { maxKeys: 8 }),
  }));
  return fc.oneof(fc.array(fc.oneof(tree.record, fc.jsonValue({ maxDepth: 1 })), { maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }));
}

/** Runs the importer and reports whether it either returned or threw an InvalidInputError. */
export function returnsOrThrowsInvalidInput(run: () => unknown): boolean {
  try {
    run();
    return true;
  } catch (error) {
    if (CtxpipeError.isInstance(error) && error.name === "InvalidInputError") return true;
    throw error;
  }
}
