// The "langchain" renderer's request: the message list a LangChain chat model's invoke() takes, the
// system prompt first as a SystemMessage.
import type { BaseMessage } from "@langchain/core/messages";

export interface LangChainRequest {
  messages: BaseMessage[];
}
