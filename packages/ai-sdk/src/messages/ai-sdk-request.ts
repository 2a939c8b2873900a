// The request the "ai-sdk" renderer produces: what generateText and streamText take, with the system
// prompt apart from the messages, as the AI SDK wants it.
import type { ModelMessage } from "ai";

export interface AiSdkRequest {
  /**
   * The composed system prompt, for generateText's `system` (`instructions` in AI SDK 7, which still
   * takes `system`). Undefined when there is none.
   */
  system?: string;
  messages: ModelMessage[];
}
