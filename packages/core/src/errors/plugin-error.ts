// Wraps anything a plugin throws, so the message names the plugin and the hook it was tapped into.
import { CtxpipeError } from "./ctxpipe-error.js";
import { ERROR_CODES } from "./error-codes.js";

export class PluginError extends CtxpipeError {
  readonly plugin: string;
  readonly hook: string;
  /** The code of the wrapped error, when it had one. */
  readonly pluginCode: string | undefined;

  constructor(plugin: string, hook: string, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(ERROR_CODES.PLUGIN_FAILED, `[plugin ${plugin}] ${hook}: ${detail}`, { cause });
    this.name = "PluginError";
    this.plugin = plugin;
    this.hook = hook;
    const code = typeof cause === "object" && cause !== null ? (cause as { code?: unknown }).code : undefined;
    this.pluginCode = typeof code === "string" ? code : undefined;
  }
}
