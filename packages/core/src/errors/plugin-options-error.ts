// Raised when a plugin or the pipeline is given options that do not validate.
import { CtxpipeError } from "./ctxpipe-error.js";
import { ERROR_CODES } from "./error-codes.js";

export class PluginOptionsError extends CtxpipeError {
  readonly plugin: string;

  constructor(plugin: string, details: string) {
    super(ERROR_CODES.OPTIONS_INVALID, `Invalid options for ${plugin}:\n${details}`);
    this.name = "PluginOptionsError";
    this.plugin = plugin;
  }
}
