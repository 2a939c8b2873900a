// Shared by the loop tests: a real JSON-lines store in a fresh directory, ids and clocks that do not
// change between runs, readers for the requests the scripted model received, and a store that crashes.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OpenAIChatMessage, OpenAIChatRequest } from "@ctxpipe/core";
import { type ConversationStore, JsonlStore } from "@ctxpipe/store";

export function tempStore(): { store: JsonlStore; directory: string } {
  const directory = mkdtempSync(join(tmpdir(), "ctxpipe-loop-"));
  return { store: new JsonlStore({ directory }), directory };
}

export function counterIds(prefix = "m"): () => string {
  let next = 0;
  return () => `${prefix}${++next}`;
}

export function fixedClock(): () => Date {
  let tick = 0;
  return () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++));
}

export function textOf(message: OpenAIChatMessage): string {
  if (typeof message.content === "string") return message.content;
  if (message.content === null) return "";
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

export function systemText(request: OpenAIChatRequest): string {
  const first = request.messages[0];
  return first?.role === "system" ? first.content : "";
}

export function lastUserText(request: OpenAIChatRequest): string {
  const users = request.messages.filter((message) => message.role === "user");
  return users.length === 0 ? "" : textOf(users[users.length - 1]!);
}

/** What a crashing store throws: the process it stands for died here. */
export class SimulatedCrash extends Error {
  constructor(append: number) {
    super(`simulated crash at append ${append}`);
    this.name = "SimulatedCrash";
  }
}

export interface CrashingStore extends ConversationStore {
  /** Whether the store has crashed: every call since has thrown. */
  readonly crashed: boolean;
}

/**
 * A store whose process dies after `appends` appends (messages or summaries, counted together): the
 * next append throws SimulatedCrash without writing, and so does everything after it. What was
 * appended before stays in the underlying store, for a new loop to resume from.
 */
export function crashingStore(store: ConversationStore, appends: number): CrashingStore {
  let count = 0;
  let crashed = false;
  const alive = () => {
    if (crashed) throw new SimulatedCrash(count + 1);
  };
  const append = () => {
    alive();
    if (count >= appends) {
      crashed = true;
      throw new SimulatedCrash(count + 1);
    }
    count++;
  };
  return {
    get crashed() {
      return crashed;
    },
    append: async (conversationId, messages) => {
      append();
      await store.append(conversationId, messages);
    },
    appendSummaries: async (conversationId, records) => {
      append();
      await store.appendSummaries(conversationId, records);
    },
    load: async (conversationId) => {
      alive();
      return store.load(conversationId);
    },
    list: () => store.list(),
    close: () => store.close(),
  };
}
