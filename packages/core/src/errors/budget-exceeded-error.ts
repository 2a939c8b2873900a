import { CtxpipeError } from "./ctxpipe-error.js";
import { ERROR_CODES } from "./error-codes.js";

/** Raised when the rendered request cannot be made to fit `maxTokens - reserveOutputTokens`. */
export class BudgetExceededError extends CtxpipeError {
  readonly tokenCount: number;
  readonly available: number;
  readonly exact: boolean;
  /** What could not be made smaller, when the plugin that gave up knows (e.g. the newest turn). */
  readonly detail: string | undefined;

  constructor(tokenCount: number, available: number, exact: boolean, options: { detail?: string } = {}) {
    super(
      ERROR_CODES.BUDGET_EXCEEDED,
      `The rendered request needs ${tokenCount} tokens (${exact ? "exact" : "estimated"}) but the budget allows ${available}. ` +
        (options.detail === undefined
          ? "Register a compression plugin on the compress stage, raise maxTokens, or lower reserveOutputTokens."
          : `${options.detail} Raise maxTokens, lower reserveOutputTokens, or shorten the newest turn.`),
    );
    this.name = "BudgetExceededError";
    this.tokenCount = tokenCount;
    this.available = available;
    this.exact = exact;
    this.detail = options.detail;
  }
}
