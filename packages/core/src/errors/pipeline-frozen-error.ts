import { CtxpipeError } from "./ctxpipe-error.js";
import { ERROR_CODES } from "./error-codes.js";

/** Raised when a plugin is registered on a pipeline that has already built. */
export class PipelineFrozenError extends CtxpipeError {
  readonly plugin: string;

  constructor(plugin: string) {
    super(
      ERROR_CODES.PIPELINE_FROZEN,
      `Cannot register plugin "${plugin}": this pipeline is frozen because it has already built a context. ` +
        "Register every plugin before the first build(), or call pipeline.clone() to get an unfrozen copy with the same plugins and add it there.",
    );
    this.name = "PipelineFrozenError";
    this.plugin = plugin;
  }
}
