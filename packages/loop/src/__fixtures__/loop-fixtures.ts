// Shared by the loop tests: a real JSON-lines store in a fresh directory, ids and clocks that do not
// change between runs, and readers for the requests the scripted model received.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OpenAIChatMessage, OpenAIChatRequest } from "@ctxpipe/core";
import { JsonlStore } from "@ctxpipe/store";

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
