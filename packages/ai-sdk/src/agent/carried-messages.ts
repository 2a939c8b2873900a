// `ai` 7 carries the messages (and instructions) a prepareStep returns into the next step: that step's
// `messages` are the ones returned, then the step's answer. Built again as they are, they would lose
// for good what compression cleared or left out of one step, and repairs would be reported as input.
// This remembers what each returned list stood for, so the next step builds from the caller's own
// history plus what is new, with the same message objects (which the importer and pipeline reuse).
// `ai` 6 passes the caller's history every step: nothing is found, and the messages are used as given.
import type { ModelMessage } from "ai";

/** What one prepareStep returned, and the history it was built from. */
interface Returned {
  readonly sent: ReadonlyArray<ModelMessage>;
  readonly history: ReadonlyArray<ModelMessage>;
  /** The instructions returned, when the step replaced the caller's; undefined when it kept them. */
  readonly sentInstructions: unknown;
  /** The caller's instructions the step was built with. */
  readonly instructions: unknown;
}

/** How many lists are remembered per first message: a few agents sharing one context and one history. */
const KEPT_PER_MESSAGE = 8;

export class CarriedMessages {
  // Keyed by the first message returned, weakly: a finished run takes its entries with it.
  readonly #byFirst = new WeakMap<object, Returned[]>();

  /** The caller's history and instructions a step's messages stand for. */
  resolve(messages: ReadonlyArray<ModelMessage>, instructions: unknown): { history: ReadonlyArray<ModelMessage>; instructions: unknown } {
    const first = messages[0];
    const candidates = first === undefined ? undefined : this.#byFirst.get(first);
    const match = candidates?.find((returned) => returned.sent.length <= messages.length && returned.sent.every((message, index) => messages[index] === message));
    if (match === undefined) return { history: messages, instructions };
    const history = [...match.history, ...messages.slice(match.sent.length)];
    const carried = match.sentInstructions !== undefined && instructions === match.sentInstructions;
    return { history, instructions: carried ? match.instructions : instructions };
  }

  remember(sent: ReadonlyArray<ModelMessage>, history: ReadonlyArray<ModelMessage>, sentInstructions: unknown, instructions: unknown): void {
    const first = sent[0];
    if (first === undefined) return;
    const list = this.#byFirst.get(first) ?? [];
    list.unshift({ sent, history, sentInstructions, instructions });
    if (list.length > KEPT_PER_MESSAGE) list.length = KEPT_PER_MESSAGE;
    this.#byFirst.set(first, list);
  }
}
