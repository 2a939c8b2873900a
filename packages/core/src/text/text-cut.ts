// What cutMiddle removed from a text, in the original's own coordinates.

/** One range cut out of a text by cutMiddle. */
export interface TextCut {
  /** contentHandle of the whole original text. */
  readonly handle: string;
  /** Code-unit offset where the cut range starts in the original (the head is original.slice(0, from)). */
  readonly from: number;
  /** Code-unit offset where the cut range ends in the original (the tail is original.slice(to)). */
  readonly to: number;
  /** Code units cut: to - from. */
  readonly chars: number;
  /** Tokens of the cut range, counted with the tokenizer given to cutMiddle (chars/4 without one). */
  readonly tokens: number;
}
