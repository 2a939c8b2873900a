import { CtxpipeError } from "./ctxpipe-error.js";
import { ERROR_CODES } from "./error-codes.js";

/** Raised when the rendered request does not fit `maxTokens - reserveOutputTokens`. */
export class BudgetExceededError extends CtxpipeError {
  readonly tokenCount: number;
  readonly available: number;
  readonly exact: boolean;

  constructor(tokenCount: number, available: number, exact: boolean) {
    super(
      ERROR_CODES.BUDGET_EXCEEDED,
      `The rendered request needs ${tokenCount} tokens (${exact ? "exact" : "estimated"}) but the budget allows ${available}. ` +
        "Register a compression plugin on the compress stage, raise maxTokens, or lower reserveOutputTokens.",
    );
    this.name = "BudgetExceededError";
    this.tokenCount = tokenCount;
    this.available = available;
    this.exact = exact;
  }
}
