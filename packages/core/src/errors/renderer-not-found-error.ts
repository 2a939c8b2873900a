import { CtxpipeError } from "./ctxpipe-error.js";
import { ERROR_CODES } from "./error-codes.js";

/** Raised when build() asks for a renderer that no registered plugin provides. */
export class RendererNotFoundError extends CtxpipeError {
  readonly renderer: string;
  readonly available: ReadonlyArray<string>;

  constructor(renderer: string, available: ReadonlyArray<string>) {
    const list = available.length === 0 ? "none are registered" : `registered: ${available.join(", ")}`;
    super(ERROR_CODES.RENDERER_NOT_FOUND, `No renderer named "${renderer}" (${list}). Register the plugin that provides it with pipeline.use().`);
    this.name = "RendererNotFoundError";
    this.renderer = renderer;
    this.available = available;
  }
}
