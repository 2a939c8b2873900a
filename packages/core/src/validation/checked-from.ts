// A request that its rules read only part of: the messages before one index, and those of a stretch
// in the middle, were checked already in an earlier request they are shared with (see
// OpenAIRequestChecker). Rules that honour it: the common request rules and the OpenAI rules, through
// messageViewsOf.

/** The messages a check reads: messages[from..], but for those of `skip` ([start, end)) when it is there. */
export interface CheckedMessages {
  readonly from: number;
  readonly skip: readonly [number, number] | undefined;
}

const ALL: CheckedMessages = { from: 0, skip: undefined };
const checked = new WeakMap<object, CheckedMessages>();

/**
 * A shallow copy of `request` whose checks see only messages[from..], less those of `skip` when it
 * is given (a stretch that starts and ends on a message that is not a tool message); paths and
 * indexes stay real.
 */
export function requestCheckedFrom<Request extends object>(request: Request, from: number, skip?: readonly [number, number]): Request {
  const copy = { ...request };
  checked.set(copy, { from, skip: skip === undefined || skip[1] <= skip[0] ? undefined : skip });
  return copy;
}

/** Where the checks of a request start reading its messages: 0 unless it came from requestCheckedFrom. */
export function checkedFrom(request: unknown): number {
  return checkedMessages(request).from;
}

/** Which messages the checks of a request read. */
export function checkedMessages(request: unknown): CheckedMessages {
  return typeof request === "object" && request !== null ? (checked.get(request) ?? ALL) : ALL;
}

/** The next message index a check reads at or after `index` (past the skipped stretch). */
export function nextChecked(messages: CheckedMessages, index: number): number {
  const { skip } = messages;
  return skip !== undefined && index >= skip[0] && index < skip[1] ? skip[1] : index;
}
