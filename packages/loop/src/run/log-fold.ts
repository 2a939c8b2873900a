// A left fold over a conversation log that resumes where it stopped. The stores hand back the same
// deep-frozen message objects for a log that only grew, so reading a run's state from its log every
// turn costs the messages appended since, not the whole log. Anything not deep-frozen is read again.
import { isDeepFrozen } from "@ctxpipe/core";
import type { StoredMessage } from "@ctxpipe/store";

interface Folded<State> {
  /** A copy of the log folded last (every message deep-frozen), and the state after it. */
  readonly messages: ReadonlyArray<StoredMessage>;
  readonly state: State;
}

export class LogFold<State> {
  readonly #initial: State;
  readonly #step: (state: State, message: StoredMessage) => State;
  /** The last log folded, by its first message (a conversation's first message does not change). */
  readonly #last = new WeakMap<object, Folded<State>>();

  /** `initial` and every state `step` returns are shared by the calls: they must never be changed. */
  constructor(initial: State, step: (state: State, message: StoredMessage) => State) {
    this.#initial = initial;
    this.#step = step;
  }

  of(messages: ReadonlyArray<StoredMessage>): State {
    const first = messages[0];
    if (first === undefined) return this.#initial;
    const last = this.#last.get(first);
    const resumed = last !== undefined && startsWith(messages, last.messages);
    if (resumed && last.messages.length === messages.length) return last.state;
    let state = resumed ? last.state : this.#initial;
    let frozen = true;
    for (let index = resumed ? last.messages.length : 0; index < messages.length; index++) {
      const message = messages[index]!;
      frozen &&= isDeepFrozen(message);
      state = this.#step(state, message);
    }
    if (frozen) this.#last.set(first, { messages: messages.slice(), state });
    return state;
  }
}

/** Whether `next` starts with the same objects as `previous`. */
function startsWith(next: ReadonlyArray<unknown>, previous: ReadonlyArray<unknown>): boolean {
  if (next.length < previous.length) return false;
  for (let index = 0; index < previous.length; index++) if (next[index] !== previous[index]) return false;
  return true;
}
