// Chat and agent mode: persist the user message, load the history, build, run the tool loop
// (compressing inside it while the current loop stays protected), persist every message as it happens,
// and persist a model failure so that the user can say "continue".
import { type ItemInput, PluginOptionsError } from "@ctxpipe/core";
import type { StoredMessage } from "@ctxpipe/store";
import { type AgentInfo, mergeToolPolicies, type ToolPolicyConfig } from "@ctxpipe/system-prompt";
import { type ConversationLog, callLog, storeLog } from "../loop/conversation-log.js";
import { type DataContext, formatDataContext, formatUserInput } from "../loop/format-messages.js";
import { type LoopEventListener, loopEventEmitter } from "../loop/loop-events.js";
import { type LoopOptions, PipelinePerConversation, type ResolvedLoopOptions, resolveLoopOptions } from "../loop/loop-options.js";
import type { LoopResult } from "../loop/loop-result.js";
import { type MessageFactory, stampMessage } from "../loop/message-stamp.js";
import { type InterruptedToolCallsPolicy, interruptedToolCallsOption, settleInterruptedCalls } from "../loop/settle-interrupted-calls.js";
import { runToolLoop } from "../loop/tool-loop.js";
import { toolsAllowedBy } from "../tools/tools-allowed-by.js";

export interface ChatLoopOptions extends LoopOptions {
  /** How the user's text is stored. Default `USER_INPUT\n<text>`. */
  readonly formatUserInput?: (text: string) => string;
}

export interface ChatSendOptions {
  /** Without one, nothing is loaded or stored (chat mode without a conversation id): the call starts from the user input alone. */
  readonly conversationId?: string;
  /** The user's message, persisted before anything else. Leave it out to let the model go on from the log. */
  readonly userInput?: string;
  /**
   * Default "agent", as a stored message without a mode is read: a call is chat mode only when it says so.
   */
  readonly mode?: "chat" | "agent";
  readonly agent?: AgentInfo;
  /** The agent-level tool policy. */
  readonly toolPolicy?: ToolPolicyConfig;
  /** Shown after the history for this call only, never stored (e.g. an executed script). */
  readonly extraUserMessages?: ReadonlyArray<string>;
  /** Shown after the history for this call only, never stored. */
  readonly dataContext?: DataContext;
  readonly signal?: AbortSignal;
  /** Text as the model streams it. onEvent gets the same pieces as "text" events. */
  readonly onText?: (delta: string) => void;
  /** Every event of the call, numbered 1, 2, 3… by `sequence`, text deltas included. */
  readonly onEvent?: LoopEventListener;
}

const OWNER = "ChatLoop";

export class ChatLoop {
  readonly #options: ChatLoopOptions;
  readonly #resolved: ResolvedLoopOptions;
  readonly #pipelines: PipelinePerConversation;
  readonly #interruptedToolCalls: InterruptedToolCallsPolicy;

  constructor(options: ChatLoopOptions) {
    this.#resolved = resolveLoopOptions(OWNER, options);
    this.#interruptedToolCalls = interruptedToolCallsOption(OWNER, options.interruptedToolCalls);
    this.#options = options;
    this.#pipelines = new PipelinePerConversation(options);
  }

  async send(call: ChatSendOptions): Promise<LoopResult> {
    const conversationId = call.conversationId?.trim() || undefined;
    const log = this.#logFor(conversationId);
    const mode = call.mode ?? "agent";
    if (mode !== "chat" && mode !== "agent") throw new PluginOptionsError(OWNER, `mode: must be "chat" or "agent" (run mode is RunLoop's), got ${JSON.stringify(mode)}`);
    const factory: MessageFactory = {
      newId: this.#resolved.newId,
      now: this.#resolved.now,
      stamp: { mode, runId: `chat-${conversationId ?? this.#resolved.newId()}`, ...(call.agent === undefined ? {} : { agentId: call.agent.id }) },
    };

    const policy = mergeToolPolicies(this.#options.systemToolPolicy, call.toolPolicy);
    const tools = toolsAllowedBy(this.#options.tools ?? [], policy);
    const signal = call.signal ?? new AbortController().signal;
    const events = loopEventEmitter(call);

    // Calls a stopped process left without results get them first, so that they stay right after their call.
    const persisted = await settleInterruptedCalls({ log, tools, messages: factory, policy: this.#interruptedToolCalls, signal, events });
    let userMessage: StoredMessage | undefined;
    let durable: Promise<void> | undefined;
    if (call.userInput !== undefined && call.userInput.trim() !== "") {
      const format = this.#options.formatUserInput ?? formatUserInput;
      userMessage = stampMessage(factory, { role: "user", content: format(call.userInput) });
      // The loop loads and builds while the message waits for the disk (once a load finds it), and
      // calls the model only once it is durable (runToolLoop's `writing`).
      let written!: () => void;
      const inLog = new Promise<void>((resolve) => {
        written = resolve;
      });
      durable = log.append([userMessage], written);
      await Promise.race([inLog, durable]);
    }
    // Where the extras go: after the newest message when the call starts (the user's input, if any).
    const history = userMessage !== undefined ? undefined : (await log.load()).messages;
    if (history !== undefined && history.length === 0) {
      throw new PluginOptionsError(OWNER, `userInput: there is nothing to send: give a non-blank userInput${conversationId === undefined ? "" : `, conversation ${JSON.stringify(conversationId)} has no messages yet`}`);
    }
    const extrasAfterId = userMessage?.id ?? history?.at(-1)?.id;

    return runToolLoop({
      log,
      pipeline: this.#pipelines.for(conversationId),
      model: this.#options.model,
      buildOptions: {
        // The conversation id keys OpenAI's prompt cache, so its turns reach the cache their prefix is in; a key the caller gives wins.
        ...(conversationId === undefined ? {} : { promptCacheKey: conversationId }),
        ...this.#options.buildOptions,
        mode,
        ...(call.agent === undefined ? {} : { agent: call.agent }),
        ...(call.toolPolicy === undefined ? {} : { toolPolicy: call.toolPolicy }),
        ...(this.#options.systemToolPolicy === undefined ? {} : { systemToolPolicy: this.#options.systemToolPolicy }),
      },
      setupTurn: () => ({ tools, policy }),
      messages: factory,
      ...(userMessage === undefined ? {} : { loopStartId: userMessage.id }),
      extras: extraItems(call, factory.newId(), mode),
      ...(extrasAfterId === undefined ? {} : { extrasAfterId }),
      maxTurns: this.#resolved.maxTurns,
      maxRepeatedFailures: this.#resolved.maxRepeatedFailures,
      maxRetries: this.#resolved.maxRetries,
      retryDelayMs: this.#resolved.retryDelayMs,
      retryTiming: this.#resolved.retryTiming,
      signal,
      persisted,
      ...(userMessage === undefined || durable === undefined ? {} : { writing: { message: userMessage, durable } }),
      events,
    });
  }

  #logFor(conversationId: string | undefined): ConversationLog {
    if (conversationId === undefined) return callLog();
    if (this.#options.store === undefined) throw new PluginOptionsError(OWNER, `store: a conversation id (${JSON.stringify(conversationId)}) needs a store to load and persist it`);
    return storeLog(this.#options.store, conversationId);
  }
}

/** Chat mode's extra inputs (extra user messages, data context) as user items that exist for this call only; their ids say where they came from. */
export function extraItems(call: Pick<ChatSendOptions, "extraUserMessages" | "dataContext">, callId: string, mode: string): ItemInput[] {
  const items: ItemInput[] = [];
  (call.extraUserMessages ?? []).forEach((text, index) => {
    if (text.trim() !== "") items.push({ type: "user", id: `extra-${callId}-${index}`, text, metadata: { mode, extra: { source: "extraUserMessages", index } } });
  });
  if (call.dataContext !== undefined) {
    items.push({ type: "user", id: `data-context-${callId}`, text: formatDataContext(call.dataContext), metadata: { mode, extra: { source: "dataContext" } } });
  }
  return items;
}
