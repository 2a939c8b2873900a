// Builds one tagged chunk, the way the XML chunk transcript lays it out: the opening tag with its attributes, the
// escaped text on the lines between, the closing tag. Custom chunk renderers use it to stay safe.
import { escapeXmlAttribute, escapeXmlText } from "./xml-escaping.js";

/** Attribute values by name, in output order; undefined values are left out. */
export type XmlAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function checkName(name: string, what: string): void {
  // Names are written by renderer code, never taken from content: a bad one is a bug worth a throw.
  if (!NAME.test(name)) throw new TypeError(`"${name}" is not a valid XML ${what} name`);
}

/** ` id="x" tool="y"`: the attributes that have a value, each escaped. */
export function xmlAttributes(attributes: XmlAttributes): string {
  let written = "";
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    checkName(name, "attribute");
    written += ` ${name}="${escapeXmlAttribute(String(value))}"`;
  }
  return written;
}

/**
 * `<tag a="1">\ntext\n</tag>`. The text is escaped unless `raw` is given, which is for markup the
 * caller built itself (nested elements), already escaped.
 */
export function xmlElement(tag: string, attributes: XmlAttributes, body: string | { raw: string }): string {
  checkName(tag, "tag");
  const inner = typeof body === "string" ? escapeXmlText(body) : body.raw;
  return `<${tag}${xmlAttributes(attributes)}>\n${inner}\n</${tag}>`;
}

/** `<tag a="1"/>`, for an element without content. */
export function xmlEmptyElement(tag: string, attributes: XmlAttributes): string {
  checkName(tag, "tag");
  return `<${tag}${xmlAttributes(attributes)}/>`;
}
