// A conversation's log file name: a reversible encoding of its id that is safe on every local
// filesystem, case-insensitive ones included. Lowercase letters, digits, "-" and "_" stay as they are;
// every other UTF-8 byte becomes "%" and two lowercase hex digits ("Run 1" → "%52un%201"). An encoding
// longer than 200 characters is replaced by "~" and the SHA-256 of the id; the id is then read back
// from the file's header line.
import { createHash } from "node:crypto";

export const LOG_FILE_EXTENSION = ".jsonl";
const MAX_ENCODED_LENGTH = 200;
const KEPT = /^[a-z0-9_-]$/;

export function conversationFileName(conversationId: string): string {
  let encoded = "";
  for (const byte of Buffer.from(conversationId, "utf8")) {
    const char = String.fromCharCode(byte);
    encoded += byte < 0x80 && KEPT.test(char) ? char : `%${byte.toString(16).padStart(2, "0")}`;
  }
  if (encoded.length > MAX_ENCODED_LENGTH) encoded = `~${createHash("sha256").update(conversationId, "utf8").digest("hex")}`;
  return encoded + LOG_FILE_EXTENSION;
}

/**
 * What a file name in the store's directory stands for: a conversation id, "hashed" when the id is only
 * in the file's header, or undefined for a file the store did not name (it is ignored).
 */
export function conversationIdFromFileName(fileName: string): string | "hashed" | undefined {
  if (!fileName.endsWith(LOG_FILE_EXTENSION)) return undefined;
  const encoded = fileName.slice(0, -LOG_FILE_EXTENSION.length);
  if (/^~[0-9a-f]{64}$/.test(encoded)) return "hashed";
  const bytes: number[] = [];
  for (let index = 0; index < encoded.length; index++) {
    const char = encoded[index] as string;
    if (char === "%") {
      const hex = encoded.slice(index + 1, index + 3);
      if (!/^[0-9a-f]{2}$/.test(hex)) return undefined;
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else if (KEPT.test(char)) {
      bytes.push(char.charCodeAt(0));
    } else {
      return undefined;
    }
  }
  const id = new TextDecoder("utf-8", { fatal: false }).decode(new Uint8Array(bytes));
  // Only the canonical spelling counts, so two file names never claim the same conversation.
  return id !== "" && conversationFileName(id) === fileName ? id : undefined;
}
