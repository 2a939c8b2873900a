// Runs an importer that is expected to fail and returns the InvalidInputError it threw, so that tests
// assert the error as a whole object (index, id, path, issues) rather than only its message.
import { CtxpipeError, type InvalidInputError } from "@ctxpipe/core";

export function catchInvalidInput(run: () => unknown): InvalidInputError {
  try {
    run();
  } catch (error) {
    if (CtxpipeError.isInstance(error) && error.name === "InvalidInputError") return error as InvalidInputError;
    throw error;
  }
  throw new Error("expected an InvalidInputError, but the importer returned normally");
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
