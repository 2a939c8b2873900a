// Which kind of LangChain message a value is. Detected by `_getType()` (every BaseMessage class, chunks
// included) or a `type` string (messages stored as plain objects), never by instanceof: an app and
// this package may each load their own copy of @langchain/core.
export type LangChainMessageType = "human" | "ai" | "system" | "tool" | "generic" | "function" | "developer" | "remove";

const KNOWN: ReadonlySet<string> = new Set<LangChainMessageType>(["human", "ai", "system", "tool", "generic", "function", "developer", "remove"]);

/** The message's type, its raw type string when it is not one LangChain has, or undefined when it has none. */
export function langChainMessageType(message: object): { known: LangChainMessageType } | { unknown: unknown } {
  const getType = (message as { _getType?: unknown })._getType;
  let type: unknown;
  if (typeof getType === "function") {
    try {
      type = getType.call(message);
    } catch {
      type = undefined;
    }
  } else type = (message as { type?: unknown }).type;
  return typeof type === "string" && KNOWN.has(type) ? { known: type as LangChainMessageType } : { unknown: type };
}
