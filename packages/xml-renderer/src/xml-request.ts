// The request the "xml" renderer produces: plain chat messages whose content is XML-tagged text.
// The shape is the one the CLI prints for `--provider xml`, and any chat API accepts it.

/** Roles of the XML transcript's messages: tool results and subagent output reach the model as user text. */
export type XmlRole = "system" | "user" | "assistant";

export interface XmlMessage {
  role: XmlRole;
  content: string;
}

export interface XmlRequest {
  messages: XmlMessage[];
}
