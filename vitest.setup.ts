// Every test run checks the pipeline's notes of how much two lists share against the lists themselves
// (see packages/core/src/pipeline/list-lineage.ts): a note that claims too much fails the test that made it.
(globalThis as Record<symbol, unknown>)[Symbol.for("ctxpipe.checkListLineage")] = true;
