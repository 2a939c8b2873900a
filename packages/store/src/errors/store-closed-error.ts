// An append or load on a store after close(): the same error from every store.
import { CtxpipeError } from "@ctxpipe/core";

export const STORE_CLOSED = "STORE_CLOSED";

export class StoreClosedError extends CtxpipeError {
  constructor(store: string) {
    super(STORE_CLOSED, `${store} is closed.`);
    this.name = "StoreClosedError";
  }
}
