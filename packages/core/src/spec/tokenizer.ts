// The contract a tokenizer implements. Versioned so third-party tokenizers can say which contract
// they were written against.
export interface Tokenizer {
  readonly specificationVersion: "v1";
  /** A name for reports, e.g. "o200k_base" or "chars/4". */
  readonly name: string;
  /** Whether counts equal the provider's own tokenizer (true) or are an estimate (false). */
  readonly exact: boolean;
  /** Number of tokens in a piece of text. */
  count(text: string): number;
}

/** What a tokenizer plugin is asked for when the build options name no tokenizer. */
export interface TokenizerRequest {
  readonly model: string | undefined;
}
