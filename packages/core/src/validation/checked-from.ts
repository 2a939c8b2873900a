// A request that its rules read from one message on: the messages before it were checked already, in
// an earlier request they are shared with (see OpenAIRequestChecker). Rules that honour it: the common
// request rules and the OpenAI rules, through messageViewsOf.

const checkFrom = new WeakMap<object, number>();

/** A shallow copy of `request` whose checks see only messages[from..]; paths and indexes stay real. */
export function requestCheckedFrom<Request extends object>(request: Request, from: number): Request {
  const copy = { ...request };
  checkFrom.set(copy, from);
  return copy;
}

/** Where the checks of a request start reading its messages: 0 unless it came from requestCheckedFrom. */
export function checkedFrom(request: unknown): number {
  return typeof request === "object" && request !== null ? (checkFrom.get(request) ?? 0) : 0;
}
