// A command line the CLI cannot run: an unknown command or option, a bad value, a missing input.
// Exit status 2, like rejected input; the message says what to type instead.
import { CtxpipeError } from "@ctxpipe/core";

export const CLI_USAGE = "CLI_USAGE";

export class CliUsageError extends CtxpipeError {
  readonly exitCode = 2;
  /** The command whose usage to show after the message. */
  readonly command: "build" | "inspect" | undefined;

  constructor(message: string, command?: "build" | "inspect") {
    super(CLI_USAGE, message);
    this.name = "CliUsageError";
    this.command = command;
  }
}
