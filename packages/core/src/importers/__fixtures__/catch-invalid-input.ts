// Runs an importer that is expected to fail and returns the InvalidInputError it threw, so that tests
// assert the error as a whole object (index, id, path, issues) rather than only its message.
import { CtxpipeError } from "../../errors/ctxpipe-error.js";
import type { InvalidInputError } from "../../errors/invalid-input-error.js";

export function catchInvalidInput(run: () => unknown): InvalidInputError {
  try {
    run();
  } catch (error) {
    if (CtxpipeError.isInstance(error) && error.name === "InvalidInputError") return error as InvalidInputError;
    throw error;
  }
  throw new Error("expected an InvalidInputError, but the importer returned normally");
}

/** The parts of the error a test compares as one object. */
export function errorShape(error: InvalidInputError) {
  return { name: error.name, code: error.code, source: error.source, index: error.index, id: error.id, path: error.path };
}
