// The run log as an engine-driven turn reads it: loading it at the start of a turn also asks the
// workflow engine, so the engine sees the log as it stands (the last turn's tool results included) and
// may answer asynchronously before the turn is set up.
// The tool loop's setupTurn is synchronous, hence this; once it may return a promise, the engine can be
// asked there and this wrapper goes.
import type { StoredMessage } from "@ctxpipe/store";
import type { ConversationLog } from "../loop/conversation-log.js";

/**
 * `onTurnStart` runs on every load that starts a turn. The tool loop loads once more after persisting
 * a call's final failure, to count repeated failures, and then stops: that load asks nothing.
 */
export function engineTurnLog(log: ConversationLog, onTurnStart: (messages: ReadonlyArray<StoredMessage>) => Promise<void>): ConversationLog {
  let afterFailure = false;
  return {
    conversationId: log.conversationId,
    append: async (messages) => {
      await log.append(messages);
      afterFailure = messages.at(-1)?.partType === "error";
    },
    appendSummaries: (records) => log.appendSummaries(records),
    load: async () => {
      const loaded = await log.load();
      if (!afterFailure) await onTurnStart(loaded.messages);
      return loaded;
    },
  };
}
