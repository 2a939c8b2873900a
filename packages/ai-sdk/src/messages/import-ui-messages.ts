// Imports AI SDK UIMessages (what useChat keeps and what a chat route receives) into ctxpipe items.
// A UI message's parts are first read as the ModelMessage content they stand for, as the AI SDK's
// convertToModelMessages reads them, so the items and the "ai-sdk" renderer are the same as for a
// ModelMessage history; what only a UI message has (tool states, sources, data parts) is kept aside.
import { type Item, type ItemInput, parsePluginOptions } from "@ctxpipe/core";
import type { UIMessage } from "ai";
import { z } from "zod";
import { type AiSdkExtra, metadataWith } from "./ai-sdk-extra.js";
import { importEachMessage } from "./import-each-message.js";
import { MessageMemo } from "./message-memo.js";
import {
  describeValue,
  type FieldPath,
  IGNORE_ISSUES,
  type IssueSink,
  isRecord,
  jsonText,
  readAssistantContent,
  readToolResultPart,
  readUserContent,
} from "./read-model-content.js";

const SOURCE = "AI SDK UI message";

const optionsSchema = z.strictObject({
  /** The id of the message at `index`. Default: the message's own `id`. */
  idOf: z.custom<(message: UIMessage, index: number) => string>((value) => typeof value === "function", "expected a function (message, index) => id").optional(),
});

export type ImportUIMessagesOptions = z.input<typeof optionsSchema>;

/** What a denied tool call is sent as when the user gave no reason, as convertToModelMessages sends it. */
export const TOOL_CALL_DENIED_TEXT = "Tool call execution denied.";

const TOOL_STATES: ReadonlySet<unknown> = new Set(["input-streaming", "input-available", "approval-requested", "approval-responded", "output-available", "output-error", "output-denied"]);

const memo = new MessageMemo();

/**
 * Converts AI SDK UIMessages to items:
 * - system → a system item (its text parts joined); user → a user item (text, files as attachments);
 * - assistant → for each step (the parts between two `step-start` parts) an assistant item with the
 *   step's text, reasoning and tool calls, then one tool-result item per call that has a result. A
 *   UI tool part holds the call and its result together; its state decides what it becomes:
 *   - `input-streaming`, `input-available`, `approval-requested`, and `approval-responded` with the
 *     call approved: a call with no result. When that call is not the last thing in the history (a
 *     stream was aborted, a tool never returned), the pipeline's repair stage answers or drops it,
 *     and reports it, so the next model call does not fail with "Tool result is missing";
 *   - `output-available`: a result with the output (text as it is, anything else as JSON text);
 *   - `output-error`: a result with `isError: true` and the error text;
 *   - `approval-responded` with the call denied: a result saying so (an `execution-denied` output);
 *   - `output-denied`: an error result with the denial's reason, or "Tool call execution denied.".
 *   A tool the provider executed (`providerExecuted`) stays inside its assistant item, with its result.
 * - Ids: the message's `id` for its first item; `${id}.${partIndex}` for the items made from its
 *   parts (later steps, tool results). Importing the same message object at the same position again
 *   gives the same item objects; treat a message as unchangeable once passed.
 * - Kept in `metadata.extra.aiSdk`: each tool part's state and fields (approval, title …) as
 *   `toolParts`, sources and data parts as `uiParts` (never sent), the message's `metadata`.
 *
 * Throws one InvalidInputError naming the index, id and field of every problem in the list.
 */
export function importUIMessages(messages: ReadonlyArray<UIMessage>, options: ImportUIMessagesOptions = {}): Item[] {
  const { idOf } = parsePluginOptions("importUIMessages", optionsSchema, options);
  return importEachMessage(messages, {
    source: SOURCE,
    noun: "UIMessages",
    memo,
    idOf: (message, index) => {
      const id = idOf === undefined ? (isRecord(message) ? message.id : undefined) : idOf(message as UIMessage, index);
      if (typeof id === "string" && id.length > 0) return id;
      return idOf === undefined
        ? { path: ["id"], problem: `a UI message needs its id (a non-empty string), got ${describeValue(id)}` }
        : { path: [], problem: `idOf gave ${describeValue(id)}; an id is a non-empty string` };
    },
    read: readUIMessage,
  });
}

interface PartAt {
  readonly part: Record<string, unknown>;
  readonly index: number;
}

function readParts(message: Record<string, unknown>, issues: IssueSink): PartAt[] {
  if (!Array.isArray(message.parts)) {
    issues.issue(["parts"], `a UI message needs its parts (an array), got ${describeValue(message.parts)}`);
    return [];
  }
  const parts: PartAt[] = [];
  message.parts.forEach((part: unknown, index) => {
    if (!isRecord(part)) issues.issue(["parts", index], `expected a part object, got ${describeValue(part)}`);
    else if (typeof part.type !== "string") issues.issue(["parts", index, "type"], `expected the part type (a string), got ${describeValue(part.type)}`);
    else parts.push({ part, index });
  });
  return parts;
}

function readUIMessage(message: unknown, id: string, issues: IssueSink): ItemInput[] {
  if (!isRecord(message)) {
    issues.issue([], `expected a message object, got ${describeValue(message)}`);
    return [];
  }
  const parts = readParts(message, issues);
  const uiMetadata = message.metadata;
  switch (message.role) {
    case "system": {
      const texts = parts.filter(({ part }) => part.type === "text");
      for (const { part, index } of texts) checkText(part, ["parts", index], issues);
      const others = parts.filter(({ part }) => part.type !== "text").map(({ part }) => part);
      const text = texts.map(({ part }) => String(part.text)).join("");
      return [{ id, type: "system", role: "system", text, metadata: metadataWith({ uiMetadata, ...(others.length > 0 ? { uiParts: others } : {}) }) }];
    }
    case "user":
      return [userItem(id, parts, issues, { uiMetadata })];
    case "assistant":
      return readAssistant(id, parts, issues, uiMetadata);
    default:
      issues.issue(["role"], `expected the role "system", "user" or "assistant", got ${describeValue(message.role)}`);
      return [];
  }
}

function checkText(part: Record<string, unknown>, path: FieldPath, issues: IssueSink): void {
  if (typeof part.text !== "string") issues.issue([...path, "text"], `a ${String(part.type)} part needs its text (a string), got ${describeValue(part.text)}`);
}

const providerOptions = (metadata: unknown) => (isRecord(metadata) ? { providerOptions: metadata } : {});

/** A file part as the ModelMessage file part it stands for (a provider reference before the URL). */
function filePart(part: Record<string, unknown>): Record<string, unknown> {
  const data = isRecord(part.providerReference) ? { type: "reference", reference: part.providerReference } : part.url;
  return { type: "file", mediaType: part.mediaType, ...(typeof part.filename === "string" ? { filename: part.filename } : {}), data, ...providerOptions(part.providerMetadata) };
}

/** A user message, or a steering message inside an assistant one: text and files; the rest kept aside. */
function userItem(id: string, parts: ReadonlyArray<PartAt>, issues: IssueSink, extra: AiSdkExtra, pathOf = (index: number): FieldPath => ["parts", index]): ItemInput {
  const content: Array<Record<string, unknown>> = [];
  const uiParts: unknown[] = [];
  for (const { part, index } of parts) {
    if (part.type === "text") {
      checkText(part, pathOf(index), issues);
      content.push({ type: "text", text: part.text, ...providerOptions(part.providerMetadata) });
    } else if (part.type === "file" && typeof part.url === "string" && typeof part.mediaType === "string") content.push(filePart(part));
    else uiParts.push(part);
  }
  const fields = readUserContent(content, [], IGNORE_ISSUES);
  return {
    id,
    type: "user",
    role: "user",
    text: fields.text,
    ...(fields.attachments.length > 0 ? { attachments: [...fields.attachments] } : {}),
    metadata: metadataWith({ ...extra, content, ...(fields.parts.length > 0 ? { parts: fields.parts } : {}), ...(uiParts.length > 0 ? { uiParts } : {}) }),
  };
}

/** The tool name of a static (`tool-<name>`) or dynamic tool part, or undefined for other parts. */
function toolNameOf(part: Record<string, unknown>): string | undefined {
  if (part.type === "dynamic-tool") return typeof part.toolName === "string" ? part.toolName : "";
  return typeof part.type === "string" && part.type.startsWith("tool-") ? part.type.slice("tool-".length) : undefined;
}

/** The tool part without its input and output, which the call and the result carry. */
function toolPartFields(part: Record<string, unknown>): Record<string, unknown> {
  const { input: _input, output: _output, errorText: _errorText, ...rest } = part;
  return rest;
}

interface Step {
  readonly id: string;
  readonly content: Array<Record<string, unknown>>;
  readonly uiParts: unknown[];
  readonly toolParts: Array<Record<string, unknown>>;
  readonly results: ItemInput[];
}

function readAssistant(id: string, parts: ReadonlyArray<PartAt>, issues: IssueSink, uiMetadata: unknown): ItemInput[] {
  const items: ItemInput[] = [];
  const newStep = (stepId: string): Step => ({ id: stepId, content: [], uiParts: [], toolParts: [], results: [] });
  // The first assistant item takes the message's id; a later step takes its step-start part's index.
  let step = newStep(id);
  let hasAssistantItem = false;
  const close = () => {
    if (step.content.length === 0 && step.uiParts.length === 0) return;
    items.push(assistantItem(step, hasAssistantItem ? undefined : uiMetadata), ...step.results);
    hasAssistantItem = true;
  };
  for (const { part, index } of parts) {
    const type = part.type as string;
    if (type === "step-start") {
      close();
      step = newStep(hasAssistantItem ? `${id}.${index}` : id);
    } else if (type === "steering-message") {
      // A user message added while the assistant answered: it goes between the steps, as the AI SDK sends it.
      close();
      const steering: PartAt[] = [];
      if (!Array.isArray(part.parts)) issues.issue(["parts", index, "parts"], `a steering message needs its parts (an array), got ${describeValue(part.parts)}`);
      else {
        part.parts.forEach((inner: unknown, position) => {
          if (isRecord(inner)) steering.push({ part: inner, index: position });
          else issues.issue(["parts", index, "parts", position], `expected a part object, got ${describeValue(inner)}`);
        });
      }
      items.push(userItem(`${id}.${index}`, steering, issues, {}, (position) => ["parts", index, "parts", position]));
      step = newStep(hasAssistantItem ? `${id}.${index}.1` : id);
    } else if (type === "text" || type === "reasoning") {
      checkText(part, ["parts", index], issues);
      step.content.push({ type, text: part.text, ...providerOptions(part.providerMetadata) });
    } else if (type === "file" && typeof part.url === "string") step.content.push(filePart(part));
    else if (type === "reasoning-file" && typeof part.url === "string") step.content.push({ type, data: part.url, mediaType: part.mediaType, ...providerOptions(part.providerMetadata) });
    else if (type === "custom") step.content.push({ type, kind: part.kind, ...providerOptions(part.providerMetadata) });
    else if (toolNameOf(part) !== undefined) readToolPart(part, index, `${id}.${index}`, step, issues);
    else step.uiParts.push(part);
  }
  close();
  return items;
}

function assistantItem(step: Step, uiMetadata: unknown): ItemInput {
  const fields = readAssistantContent(step.content, [], IGNORE_ISSUES);
  const extra: AiSdkExtra = {
    content: step.content,
    ...(fields.parts.length > 0 ? { parts: fields.parts } : {}),
    ...(step.toolParts.length > 0 ? { toolParts: step.toolParts } : {}),
    ...(step.uiParts.length > 0 ? { uiParts: step.uiParts } : {}),
    uiMetadata,
  };
  return {
    id: step.id,
    type: "assistant",
    role: "assistant",
    text: fields.text,
    toolCalls: fields.toolCalls.map((call) => ({ ...call, kind: "tool" })),
    ...(fields.reasoning.length > 0 ? { reasoning: fields.reasoning.map((entry) => ({ ...entry })) } : {}),
    metadata: metadataWith(extra),
  };
}

/** A tool part: its call goes into the step's content, its result (when its state has one) after the step. */
function readToolPart(part: Record<string, unknown>, index: number, resultId: string, step: Step, issues: IssueSink): void {
  const toolName = toolNameOf(part) ?? "";
  const path = ["parts", index];
  const callId = part.toolCallId;
  const state = part.state;
  if (toolName.length === 0) issues.issue(part.type === "dynamic-tool" ? [...path, "toolName"] : [...path, "type"], `a tool part needs the tool name, got ${describeValue(part.type === "dynamic-tool" ? part.toolName : part.type)}`);
  if (typeof callId !== "string") issues.issue([...path, "toolCallId"], `a tool part needs its toolCallId (a string), got ${describeValue(callId)}`);
  if (!TOOL_STATES.has(state)) issues.issue([...path, "state"], `expected a tool part state (${[...TOOL_STATES].join(", ")}), got ${describeValue(state)}`);
  if (state === "output-error" && typeof part.errorText !== "string") issues.issue([...path, "errorText"], `an output-error tool part needs its errorText (a string), got ${describeValue(part.errorText)}`);
  // A call cut off mid-stream may have no input yet: an empty argument object, with rawInput kept.
  const input = part.input === undefined ? (state === "output-error" && "rawInput" in part ? part.rawInput : {}) : part.input;
  const badInput = jsonText(input, [...path, "input"], issues) === undefined;
  const badOutput = state === "output-available" && jsonText(part.output, [...path, "output"], issues) === undefined;
  if (badInput || badOutput) return;
  if (toolName.length === 0 || typeof callId !== "string" || !TOOL_STATES.has(state)) return;

  const approval = isRecord(part.approval) ? part.approval : undefined;
  const callOptions = providerOptions(part.callProviderMetadata ?? (state === "output-error" ? part.resultProviderMetadata : undefined));
  const providerExecuted = part.providerExecuted === true;
  step.content.push({ type: "tool-call", toolCallId: callId, toolName, input, ...(providerExecuted ? { providerExecuted: true } : {}), ...callOptions });
  if (approval !== undefined && typeof approval.id === "string") {
    step.content.push({
      type: "tool-approval-request",
      approvalId: approval.id,
      toolCallId: callId,
      ...(typeof approval.isAutomatic === "boolean" ? { isAutomatic: approval.isAutomatic } : {}),
      ...(typeof approval.requestReason === "string" ? { reason: approval.requestReason } : {}),
      ...(typeof approval.signature === "string" ? { signature: approval.signature } : {}),
    });
  }
  step.toolParts.push(toolPartFields(part));

  const output = toolOutput(part, approval);
  if (output === undefined) return;
  const resultPart = { type: "tool-result", toolCallId: callId, toolName, output, ...providerOptions(part.resultProviderMetadata ?? part.callProviderMetadata) };
  if (providerExecuted) {
    // The provider ran it: its result stays beside the call, inside the assistant message.
    step.content.push(resultPart);
    return;
  }
  const fields = readToolResultPart(resultPart, [], IGNORE_ISSUES);
  if (fields === undefined) return;
  step.results.push({
    id: resultId,
    type: "tool-result",
    role: "tool",
    callId: fields.callId,
    toolName: fields.toolName,
    output: fields.output,
    isError: fields.isError,
    kind: "tool",
    metadata: metadataWith({ part: resultPart, toolParts: [toolPartFields(part)] }),
  });
}

/** The ModelMessage output a tool part's state stands for, or undefined when it has no result yet. */
function toolOutput(part: Record<string, unknown>, approval: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const reason = typeof approval?.reason === "string" && approval.reason.length > 0 ? approval.reason : undefined;
  switch (part.state) {
    case "output-available":
      return typeof part.output === "string" ? { type: "text", value: part.output } : { type: "json", value: part.output ?? null };
    case "output-error":
      return { type: "error-text", value: part.errorText };
    case "output-denied":
      return { type: "error-text", value: reason ?? TOOL_CALL_DENIED_TEXT };
    case "approval-responded":
      return approval?.approved === false ? { type: "execution-denied", ...(reason === undefined ? {} : { reason }) } : undefined;
    default:
      return undefined;
  }
}

