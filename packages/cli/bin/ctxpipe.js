#!/usr/bin/env node
// The `ctxpipe` executable. It is a committed file rather than dist/bin.js itself, so that installing the
// workspace links the command before anything is built (no "Failed to create bin" on a fresh clone).
try {
  await import("../dist/bin.js");
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("dist/bin.js")) throw error;
  process.stderr.write("ctxpipe: the command is not built yet (packages/cli/dist is missing). Run `pnpm build` in the repository, or `pnpm ctxpipe …` to run it from source.\n");
  process.exitCode = 1;
}
