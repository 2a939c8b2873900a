// Between the chunks merged into one message, and between the parts of one assistant item: a blank
// line, so every tag starts on a line of its own.
export const CHUNK_SEPARATOR = "\n\n";
