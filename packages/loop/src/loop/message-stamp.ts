// The fields every message a loop persists carries, in chat and run mode: the id, the time and where it
// came from.
import type { StoredMessage } from "@ctxpipe/store";

export interface MessageStamp {
  readonly mode: string;
  readonly runId: string;
  readonly agentId?: string;
}

export interface MessageFactory {
  readonly newId: () => string;
  readonly now: () => Date;
  readonly stamp: MessageStamp;
}

type MessageBody = Omit<StoredMessage, "id" | "createdAt" | "mode" | "runId" | "agentId">;

export function stampMessage(factory: MessageFactory, body: MessageBody): StoredMessage {
  const { agentId, ...stamp } = factory.stamp;
  return {
    id: factory.newId(),
    ...body,
    createdAt: factory.now().toISOString(),
    ...stamp,
    ...(agentId === undefined ? {} : { agentId }),
  } as StoredMessage;
}
