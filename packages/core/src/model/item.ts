// The canonical item model: every importer produces these and every stage and renderer consumes them.
// One item per stored record (a tool result is its own item, the calls live on the assistant item),
// so report entries line up with what the user stored.
import { z } from "zod";
import { attachmentSchema } from "./attachment.js";
import { itemMetadataSchema } from "./item-metadata.js";
import { toolCallSchema } from "./tool-call.js";

const base = {
  /** Stable and unique within one build. */
  id: z.string().min(1, "an item needs a non-empty id"),
  /**
   * Orders the items (with the build's default `order: "createdAt"`); ties keep input order and items
   * without a date keep their position. Any string is accepted: one unreadable date in a stored log
   * must not refuse the log, so such an item is treated as undated and the build warns about it.
   */
  createdAt: z.string().optional(),
  metadata: itemMetadataSchema.default({}),
};

export const userItemSchema = z.object({
  ...base,
  type: z.literal("user"),
  role: z.literal("user").default("user"),
  text: z.string(),
  attachments: z.array(attachmentSchema).optional(),
});

export const reasoningSchema = z.object({
  text: z.string(),
  /** Provider signature that must accompany replayed reasoning (Anthropic thinking). */
  signature: z.string().optional(),
  redacted: z.boolean().optional(),
});

export const assistantItemSchema = z.object({
  ...base,
  type: z.literal("assistant"),
  role: z.literal("assistant").default("assistant"),
  text: z.string().default(""),
  toolCalls: z.array(toolCallSchema).default([]),
  reasoning: z.array(reasoningSchema).optional(),
  /** The XML chunk transcript's `assistant_clarification`: the assistant asks the user a question. */
  clarification: z.boolean().optional(),
});

export const systemItemSchema = z.object({
  ...base,
  type: z.literal("system"),
  role: z.literal("system").default("system"),
  text: z.string(),
});

export const toolResultItemSchema = z.object({
  ...base,
  type: z.literal("tool-result"),
  role: z.literal("tool").default("tool"),
  /**
   * The id of the tool call this answers. May be empty: some stores write "" for every call id, and
   * repair-orphans pairs empty ids by position (the n-th empty result answers the n-th empty call).
   */
  callId: z.string(),
  toolName: z.string().optional(),
  output: z.string(),
  isError: z.boolean().default(false),
  durationMs: z.number().nonnegative().optional(),
  kind: z.enum(["tool", "skill"]).default("tool"),
});

/**
 * A persisted LLM or runtime error, kept in the history so the user can say "continue" (chat and run
 * mode store a failure this way).
 */
export const errorItemSchema = z.object({
  ...base,
  type: z.literal("error"),
  role: z.literal("assistant").default("assistant"),
  text: z.string(),
  code: z.string().optional(),
});

/** A compression summary standing in for a range of earlier items. */
export const summaryItemSchema = z.object({
  ...base,
  type: z.literal("summary"),
  role: z.literal("system").default("system"),
  text: z.string(),
  /** Ids of the items the summary replaces. */
  coveredIds: z.array(z.string()).default([]),
  /** Inclusive range form, when the covered ids are not listed one by one. */
  fromId: z.string().optional(),
  toId: z.string().optional(),
  sourceTokenCount: z.number().int().nonnegative().optional(),
  /** A memory chunk's `compacted_at` (epoch milliseconds) and `original_count`. */
  compactedAt: z.number().optional(),
  originalCount: z.number().int().nonnegative().optional(),
});

export const subagentSpawnItemSchema = z.object({
  ...base,
  type: z.literal("subagent-spawn"),
  role: z.literal("assistant").default("assistant"),
  subagentId: z.string().min(1),
  agentType: z.string().optional(),
  /** The task handed to the subagent, usually JSON text. */
  text: z.string(),
});

export const subagentMessageItemSchema = z.object({
  ...base,
  type: z.literal("subagent-message"),
  role: z.literal("assistant").default("assistant"),
  subagentId: z.string().min(1),
  text: z.string(),
});

export const subagentResultItemSchema = z.object({
  ...base,
  type: z.literal("subagent-result"),
  role: z.literal("user").default("user"),
  subagentId: z.string().min(1),
  success: z.boolean().default(true),
  text: z.string(),
});

export const parentMessageItemSchema = z.object({
  ...base,
  type: z.literal("parent-message"),
  role: z.literal("user").default("user"),
  parentAgentId: z.string().min(1),
  text: z.string(),
});

export const todoUpdateItemSchema = z.object({
  ...base,
  type: z.literal("todo-update"),
  role: z.literal("assistant").default("assistant"),
  /** The memory chunk's action attribute, e.g. "todo_set". */
  action: z.string().default("todo_set"),
  /** The todo list, usually JSON text. */
  text: z.string(),
});

export const thinkingItemSchema = z.object({
  ...base,
  type: z.literal("thinking"),
  role: z.literal("assistant").default("assistant"),
  text: z.string(),
});

export const userInterventionItemSchema = z.object({
  ...base,
  type: z.literal("user-intervention"),
  role: z.literal("user").default("user"),
  text: z.string(),
});

export const taskCompletedItemSchema = z.object({
  ...base,
  type: z.literal("task-completed"),
  role: z.literal("assistant").default("assistant"),
  text: z.string(),
});

export const taskAbandonedItemSchema = z.object({
  ...base,
  type: z.literal("task-abandoned"),
  role: z.literal("assistant").default("assistant"),
  reason: z.string().optional(),
  text: z.string(),
});

export const taskTerminatedItemSchema = z.object({
  ...base,
  type: z.literal("task-terminated"),
  role: z.literal("assistant").default("assistant"),
  terminatedBy: z.string().optional(),
  text: z.string(),
});

export const itemSchema = z.discriminatedUnion("type", [
  userItemSchema,
  assistantItemSchema,
  systemItemSchema,
  toolResultItemSchema,
  errorItemSchema,
  summaryItemSchema,
  subagentSpawnItemSchema,
  subagentMessageItemSchema,
  subagentResultItemSchema,
  parentMessageItemSchema,
  todoUpdateItemSchema,
  thinkingItemSchema,
  userInterventionItemSchema,
  taskCompletedItemSchema,
  taskAbandonedItemSchema,
  taskTerminatedItemSchema,
]);

/** A validated item, as every stage and renderer sees it. */
export type Item = z.output<typeof itemSchema>;
/** What build() and the importers accept: defaults (role, metadata, empty tool calls) may be left out. */
export type ItemInput = z.input<typeof itemSchema>;
export type ItemType = Item["type"];
export type ItemRole = Item["role"];
/** The item of one type, e.g. `ItemOf<"tool-result">`. */
export type ItemOf<T extends ItemType> = Extract<Item, { type: T }>;

export const ITEM_TYPES = itemSchema.options.map((option) => option.shape.type.value) as ReadonlyArray<ItemType>;
