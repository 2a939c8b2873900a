// Escaping for tag content and attribute values. Text never contains a raw "<", so it cannot close or
// open a tag; attribute values never contain a raw quote. Every "&" is escaped too, which makes the
// escaping reversible: unescapeXml(escapeXmlText(text)) === text for every string.

// "\r" is escaped in text too: XML parsers turn a raw "\r\n" or "\r" into "\n", so only a character
// reference carries it through.
const TEXT_ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;" };
// Line breaks and tabs are escaped in attributes because XML parsers turn them into spaces there.
const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = { ...TEXT_ESCAPES, '"': "&quot;", "\n": "&#10;", "\t": "&#9;" };
const NAMED: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Escapes text for the inside of an element. */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>\r]/g, (character) => TEXT_ESCAPES[character]!);
}

/** Escapes a value for a double-quoted attribute. */
export function escapeXmlAttribute(value: string): string {
  return value.replace(/[&<>"\n\r\t]/g, (character) => ATTRIBUTE_ESCAPES[character]!);
}

/**
 * Reverses escapeXmlText and escapeXmlAttribute: the five named entities and numeric character
 * references become characters again. Anything else (an unknown entity, a lone "&") is left as it is.
 */
export function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});/g, (entity, name: string) => {
    const named = NAMED[name];
    if (named !== undefined) return named;
    const codePoint = name.startsWith("#x") ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
  });
}
