// JSON.parse with the failure turned into a position a person can find: "line 3, column 14".
export type JsonParse = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

export function parseJsonText(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    if (position?.[1] === undefined) return { ok: false, message };
    const offset = Number(position[1]);
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    return { ok: false, message: `${message.replace(/ in JSON at position \d+.*$/, "")} (line ${line}, column ${column})` };
  }
}
