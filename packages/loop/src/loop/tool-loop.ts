// The loop every mode shares (chat, agent and run mode): each turn loads the log, builds the request from it,
// calls the model, persists the answer, runs the tools and persists each result as it happens. The log
// is the single source of truth, so a process that dies between turns resumes where the log stands.
import type { SummaryRecordInput } from "@ctxpipe/compression";
import { type BuildOptions, type BuildResult, importStoredMessages, type ItemInput, type Pipeline } from "@ctxpipe/core";
import type { OffloadedRecord, StoredMessage } from "@ctxpipe/store";
import type { ToolPolicyConfig } from "@ctxpipe/system-prompt";
import type { ModelAdapter, ModelReply, ModelUsage } from "../model/model-adapter.js";
import { ModelError } from "../model/model-error.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { DEFAULT_RETRIEVE_MAX_CHARS, offloadedTextTool, RETRIEVE_CONTEXT_TOOL } from "../tools/retrieve-context-tool.js";
import { runToolCall } from "../tools/run-tool-call.js";
import { isToolAllowed } from "../tools/tools-allowed-by.js";
import { type ConversationLog, notStoredYet, rememberStored } from "./conversation-log.js";
import { countRepeatedFailures, FAILURE_FINGERPRINT_FIELD } from "./count-repeated-failures.js";
import { formatModelFailure } from "./format-messages.js";
import { type LoopEventEmitter, type LoopEventListener, loopEventEmitter } from "./loop-events.js";
import type { LoopResult, LoopStatus } from "./loop-result.js";
import { type MessageFactory, stampMessage } from "./message-stamp.js";
import { RepeatedFailureError } from "./repeated-failure-error.js";
import { defaultRetryTiming, type RetryTiming, retryDelay } from "./retry-delay.js";
import { learnFromUsage, loopTokenizerOf, type TokenEstimate } from "./token-estimate.js";

/** What a turn offers the model, worked out from the log as it stands (run mode's step changes it). */
export interface TurnSetup {
  readonly tools: ReadonlyArray<LoopTool>;
  readonly options?: Partial<BuildOptions>;
  /** The turn's merged tool policy: one that denies retrieve_context (by name or category) keeps it out. */
  readonly policy?: ToolPolicyConfig;
}

export interface ToolLoopParams {
  readonly log: ConversationLog;
  readonly pipeline: Pipeline;
  readonly model: ModelAdapter;
  /** Everything the build needs that does not change between turns. */
  readonly buildOptions: BuildOptions;
  /** Asked at the start of every turn with the log as it stands; may answer asynchronously (a workflow engine). */
  readonly setupTurn: (messages: ReadonlyArray<StoredMessage>) => TurnSetup | Promise<TurnSetup>;
  readonly messages: MessageFactory;
  /** The first message of this call; with none, the first message this call persists. */
  readonly loopStartId?: string;
  /** Items shown for this call only (chat mode's extra user messages and data context). */
  readonly extras: ReadonlyArray<ItemInput>;
  /** The extras go right after this message; at the end of the history when it is not found. */
  readonly extrasAfterId?: string;
  readonly maxTurns: number;
  readonly maxRepeatedFailures: number;
  readonly maxRetries: number;
  readonly retryDelayMs: number;
  /** The cap on a retry's wait, how to wait and the jitter's random source. Default: one minute, a timer, Math.random. */
  readonly retryTiming?: RetryTiming;
  readonly signal: AbortSignal;
  readonly onText?: (delta: string) => void;
  readonly onEvent?: LoopEventListener;
  /**
   * The call's event emitter, when the caller emitted events before the loop started (so they share
   * one numbering). Without one, the loop makes one from onText and onEvent.
   */
  readonly events?: LoopEventEmitter;
  /** Messages persisted before the loop started (interrupted calls settled), reported in the result. */
  readonly persisted?: ReadonlyArray<StoredMessage>;
  /**
   * A message the caller appended that a load already finds but that may not be durable yet (the
   * user's input): the first turn loads and builds meanwhile, and waits for it before the "persisted"
   * event, before calling the model and before returning. An append that failed fails the call.
   */
  readonly writing?: { readonly message: StoredMessage; readonly durable: Promise<void> };
}

function withExtras(items: ItemInput[], extras: ReadonlyArray<ItemInput>, afterId: string | undefined): ItemInput[] {
  if (extras.length === 0) return items;
  const at = afterId === undefined ? -1 : items.findIndex((item) => item.id === afterId);
  const position = at === -1 ? items.length : at + 1;
  return [...items.slice(0, position), ...extras, ...items.slice(position)];
}

/**
 * retrieve_context is the loop's own way to read the conversation's own text back, with no effect
 * outside it: only an explicit deny (its name, or its category) keeps it out, not an allow list that
 * does not name it. A tool of the caller's with the same name wins.
 */
function canOfferRetrieveContext(setup: TurnSetup, tool: LoopTool): boolean {
  if (setup.tools.some((offered) => offered.name === RETRIEVE_CONTEXT_TOOL)) return false;
  const denied: ToolPolicyConfig = {
    ...(setup.policy?.deniedTools === undefined ? {} : { deniedTools: setup.policy.deniedTools }),
    ...(setup.policy?.deniedCategories === undefined ? {} : { deniedCategories: setup.policy.deniedCategories }),
  };
  return isToolAllowed(tool, denied);
}

/**
 * How much one retrieve_context call returns, so that what the model reads back stays whole in the next
 * builds: the default truncation caps one result at a quarter of the budget and all of a turn's tool
 * results at half of it. A quarter of the budget in characters is at most an eighth in tokens (two or
 * more characters a token, dense logs included), so a cut result and a few replies fit together.
 */
function retrieveMaxChars(build: BuildResult<unknown> | undefined): number {
  const available = build?.report.budget?.available;
  if (available === undefined) return DEFAULT_RETRIEVE_MAX_CHARS;
  return Math.max(1000, Math.min(DEFAULT_RETRIEVE_MAX_CHARS, Math.floor(available / 4)));
}

function toolDefinitions(tools: ReadonlyArray<LoopTool>) {
  return tools.map(({ name, description, parameters }) => ({ name, ...(description === undefined ? {} : { description }), ...(parameters === undefined ? {} : { parameters }) }));
}

/** Fields of the stored message shape that the importers read: an adapter's extra fields cannot set them. */
const STORED_MESSAGE_FIELDS = new Set(["id", "role", "content", "createdAt", "tool_calls", "toolCalls", "tool_call_id", "mode", "runId", "agentId", "partType", "toolName", "duration", "includeInContext", "pinned", "priority", "error", "is_error", "body", "kind", "summary", "coveredIds", "messageIds", "reason", "terminatedBy"]);

/** The reply's extra fields (e.g. the Responses adapter's openaiResponses), stored beside the message for the next build. */
function storedExtra(reply: ModelReply): Record<string, unknown> {
  return Object.fromEntries(Object.entries(reply.extra ?? {}).filter(([name, value]) => value !== undefined && !STORED_MESSAGE_FIELDS.has(name)));
}

function toStoredToolCalls(reply: ModelReply) {
  return reply.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }));
}

export async function runToolLoop(params: ToolLoopParams): Promise<LoopResult> {
  const { log, model, signal } = params;
  const persisted: StoredMessage[] = [...(params.persisted ?? [])];
  let loopStartId = params.loopStartId;
  let usage: ModelUsage = { inputTokens: 0, outputTokens: 0 };
  let tokenEstimate: TokenEstimate | undefined;
  let text = "";
  let turns = 0;
  const retryTiming = params.retryTiming ?? defaultRetryTiming;
  const events = params.events ?? loopEventEmitter(params);
  let lastBuild: BuildResult<unknown> | undefined;
  const retrieveContext = offloadedTextTool(
    (handle) => log.loadOffloaded(handle),
    () => retrieveMaxChars(lastBuild),
  );
  // Handles stored for this conversation by this process: the store would keep them once anyway, but
  // a build names every text it cleared, and handing thousands back each call costs in proportion to the history.
  const storedHandles = log.storedHandles;

  let writing = params.writing;
  // Reported as persisted once durable, where the caller used to wait for it: before anything built from it is.
  const settleWriting = async () => {
    if (writing === undefined) return;
    const { message, durable } = writing;
    writing = undefined;
    await durable;
    persisted.push(message);
    events.emit({ type: "persisted", message });
  };
  const persist = async (message: StoredMessage) => {
    await log.append([message]);
    persisted.push(message);
    loopStartId ??= message.id;
    events.emit({ type: "persisted", message });
  };
  const end = async (status: LoopStatus, error?: LoopResult["error"]): Promise<LoopResult> => {
    await settleWriting();
    return finished(status, error);
  };
  const finished = (status: LoopStatus, error?: LoopResult["error"]): LoopResult => ({
    status,
    text,
    turns,
    persisted,
    usage,
    ...(error === undefined ? {} : { error }),
    ...(lastBuild === undefined ? {} : { lastBuild }),
    ...(tokenEstimate === undefined ? {} : { tokenEstimate }),
    ...loopTokenizerOf(params.pipeline),
  });

  try {
    for (let turn = 0; turn < params.maxTurns; ) {
      if (signal.aborted) return end("aborted");
      const conversation = await log.load();
      const setup = await params.setupTurn(conversation.messages);
      const items = withExtras(importStoredMessages(conversation.messages), params.extras, params.extrasAfterId);
      const baseCompression = params.buildOptions.compression;
      const options: BuildOptions = {
        // The log has a total order (the order it was written in): clocks of several processes must not reorder it.
        order: "input",
        ...params.buildOptions,
        ...setup.options,
        renderer: model.renderer,
        ...(model.model === undefined ? {} : { model: model.model }),
        // The store keeps records as they were appended; the summaries option reads and checks them.
        summaries: conversation.summaries as ReadonlyArray<SummaryRecordInput>,
        // Compression inside the loop touches only the history before this call: the current loop is protected.
        compression: baseCompression === false ? false : { ...baseCompression, ...(loopStartId === undefined ? {} : { loopStartId }) },
      };
      // retrieve_context is offered while the conversation has offloaded text. A build that offloads for
      // the first time is made again with the tool, so the request that goes out lets the model read back.
      const offerable = canOfferRetrieveContext(setup, retrieveContext);
      let turnTools = offerable && (await log.hasOffloaded()) ? [...setup.tools, retrieveContext] : setup.tools;
      let result = await params.pipeline.build(items, { ...options, tools: toolDefinitions(turnTools) });
      if (offerable && turnTools === setup.tools && result.report.offloaded.length > 0) {
        turnTools = [...setup.tools, retrieveContext];
        result = await params.pipeline.build(items, { ...options, tools: toolDefinitions(turnTools) });
      }
      lastBuild = result;
      // Built while the caller's message was on its way to the disk: nothing goes out before it is durable.
      await settleWriting();
      if (signal.aborted) return end("aborted");
      // Kept before the model sees a marker naming them, so a crash after the call cannot lose them.
      const offloaded = result.report.offloaded;
      const fresh = notStoredYet(offloaded, storedHandles);
      if (fresh.length > 0) {
        const createdAt = params.messages.now().toISOString();
        const records: OffloadedRecord[] = fresh.map(({ handle, itemId, text }) => ({ handle, itemId, text, createdAt }));
        await log.appendOffloaded(records);
        for (const record of records) storedHandles.add(record.handle);
        events.emit({ type: "offloaded", offloaded: records.map(({ handle, itemId, text }) => ({ handle, itemId, chars: text.length, createdAt })) });
      }
      rememberStored(offloaded, storedHandles);
      events.emit({ type: "built", turn, result });
      const records = result.report.compression?.records ?? [];
      if (records.length > 0) {
        await log.appendSummaries(records);
        events.emit({ type: "summarized", records });
      }

      // Attempts of one model call send the same request: a failed attempt leaves nothing in the log, so
      // the retry carries neither its error text nor a turn synthesized around it.
      let reply: ModelReply | undefined;
      for (let attempt = 1; reply === undefined; attempt++) {
        try {
          reply = await model.complete({ request: result.request, signal, onText: (delta) => events.text(delta) });
        } catch (error) {
          if (!(error instanceof ModelError)) throw error;
          if (error.code === "LLM_ABORTED" || signal.aborted) return end("aborted");
          const delayMs = error.retryable && attempt <= params.maxRetries ? retryDelay(error, attempt, params.retryDelayMs, retryTiming) : undefined;
          if (delayMs !== undefined) {
            const repeated = countRepeatedFailures(conversation.messages, error.fingerprint);
            events.emit({ type: "model-failed", turn, attempt, error, repeated, willRetry: true, delayMs });
            await retryTiming.sleep(delayMs, signal);
            if (signal.aborted) return end("aborted");
            continue;
          }
          // The call's final failure is persisted so that the model's next turn and "continue" start from it;
          // its fingerprint lets the next calls count identical failures from the log.
          await persist(stampMessage(params.messages, { role: "assistant", content: formatModelFailure(error), partType: "error", errorCode: error.code, [FAILURE_FINGERPRINT_FIELD]: error.fingerprint }));
          const repeated = countRepeatedFailures((await log.load()).messages, error.fingerprint);
          events.emit({ type: "model-failed", turn, attempt, error, repeated, willRetry: false });
          if (repeated >= params.maxRepeatedFailures) return end("failed", new RepeatedFailureError(error, repeated));
          return end("failed", error);
        }
      }

      // The answer arrived, but the caller no longer wants it.
      if (signal.aborted) return end("aborted");
      turn++;
      turns++;
      text = reply.text;
      if (reply.usage !== undefined) usage = { inputTokens: usage.inputTokens + reply.usage.inputTokens, outputTokens: usage.outputTokens + reply.usage.outputTokens };
      // The provider's count of this very request: an approximate tokenizer learns from it for the next build.
      tokenEstimate = learnFromUsage(params.pipeline, result, reply.usage) ?? tokenEstimate;
      events.emit({ type: "replied", turn: turn - 1, reply });
      const toolCalls = toStoredToolCalls(reply);
      await persist(
        stampMessage(params.messages, {
          ...storedExtra(reply),
          role: "assistant",
          content: reply.text === "" && toolCalls.length > 0 ? null : reply.text,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        }),
      );
      if (reply.toolCalls.length === 0) return end("completed");

      const tools = new Map(turnTools.map((tool) => [tool.name, tool]));
      for (const call of reply.toolCalls) {
        // Results not persisted before an abort are synthesized by the next build's repair stage.
        if (signal.aborted) return end("aborted");
        const outcome = await runToolCall(call, tools, { conversationId: log.conversationId, signal });
        await persist(
          stampMessage(params.messages, {
            role: "tool",
            content: outcome.content,
            tool_call_id: call.id,
            toolName: call.name,
            duration: outcome.durationMs,
            partType: "tool_result",
            ...(outcome.isError ? { is_error: true } : {}),
          }),
        );
        events.emit({ type: "tool-ran", call, content: outcome.content, isError: outcome.isError, durationMs: outcome.durationMs });
      }
    }
    return end("max-turns");
  } catch (error) {
    // The caller's message may still be on its way to the disk: its own failure comes first.
    await settleWriting();
    throw error;
  }
}
