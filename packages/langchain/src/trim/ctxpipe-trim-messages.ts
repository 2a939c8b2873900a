// A drop-in for LangChain's trimMessages(messages, { maxTokens, tokenCounter, strategy: "last" }):
// the same messages in and out, fitted by ctxpipe's pipeline. Whole turns are dropped, oldest first,
// so a tool call never loses its results; broken history (orphan results, unanswered calls,
// duplicates) is repaired; the system message is always kept; counts are exact for registry models.
import type { CompressionPluginOptions } from "@ctxpipe/compression";
import { type BuildReport, type BuildResult, type Pipeline, PluginOptionsError, SYSTEM_PROMPT_ID, type Tokenizer, type ToolDefinitionInput } from "@ctxpipe/core";
import type { EncodingName } from "@ctxpipe/tokenizers";
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { type Runnable, RunnableLambda } from "@langchain/core/runnables";
import { createLangChainPipeline } from "../counting/default-pipeline.js";
import { resolveCounting } from "../counting/resolve-counting.js";
import { importLangChainMessages } from "../messages/import-langchain-messages.js";
import type { LangChainRequest } from "../renderer/langchain-request.js";

const OWNER = "ctxpipeTrimMessages";

/** LangChain's token counter: a function of the messages, or a chat model (whose model name is used). */
export type LangChainTokenCounter = ((messages: BaseMessage[]) => number | Promise<number>) | { readonly model?: unknown; readonly modelName?: unknown };

export interface CtxpipeTrimOptions {
  /**
   * The most tokens the returned messages may take, counted as ctxpipe counts a request (each
   * message's framing and the reply priming included). Default: the model's context window, less
   * reserveOutputTokens.
   */
  readonly maxTokens?: number;
  /** Count exactly as this registry model ("gpt-4o", "claude-sonnet-4-5"...), offline. */
  readonly model?: string;
  /**
   * As in trimMessages. A chat model counts as its `model` name (looked up in the registry). A
   * function is asked for each text on its own and must answer synchronously; without `model` or a
   * counter, texts are counted with o200k_base (flagged inexact).
   */
  readonly tokenCounter?: LangChainTokenCounter;
  /** Only "last" (keep the newest messages), trimMessages' usual choice. */
  readonly strategy?: "last";
  /** Accepted for trimMessages compatibility: the system message is always kept. */
  readonly includeSystem?: boolean;
  /** Accepted for trimMessages compatibility: the result always starts (after the system message) on a human message and ends where a model can answer. */
  readonly startOn?: unknown;
  readonly endOn?: unknown;
  /** Not supported: ctxpipe never sends part of a message (only compression cuts tool results). */
  readonly allowPartial?: false;
  /** Tokens kept free for the answer, out of maxTokens. Default 0, as trimMessages. */
  readonly reserveOutputTokens?: number;
  /** Count with this tokenizer instead. */
  readonly tokenizer?: Tokenizer;
  /** Encoding for a model the registry does not know. Default "o200k_base". */
  readonly fallback?: EncodingName;
  /** The tools the model is called with: they take room in the budget. */
  readonly tools?: ReadonlyArray<ToolDefinitionInput>;
  /**
   * Compression before dropping turns (cut long tool results, clear old ones, slide the window), or
   * false (default): like trimMessages, only whole turns are dropped and no text is changed.
   */
  readonly compression?: CompressionPluginOptions | false;
  /** A pipeline of your own (keep one per conversation: rebuilds then cost only the new messages). */
  readonly pipeline?: Pipeline;
  /** Called with the report of what was kept, dropped and repaired, and why. */
  readonly onReport?: (report: BuildReport) => void;
}

export interface CtxpipeTrimResult {
  readonly messages: BaseMessage[];
  readonly report: BuildReport;
  /** Tokens of the returned messages, as counted for the budget. */
  readonly tokenCount: number;
  readonly tokenCountExact: boolean;
  readonly result: BuildResult<LangChainRequest>;
}

// Used when the caller gives no pipeline: one shared, since a pipeline only remembers per item object.
let sharedPipeline: Pipeline | undefined;

function counterTokenizer(counter: (messages: BaseMessage[]) => number | Promise<number>): Tokenizer {
  // Asked once now, so an async counter is refused here rather than deep inside the build.
  const probe = counter([new HumanMessage("probe")]);
  if (typeof probe !== "number") {
    if (probe instanceof Promise) probe.catch(() => {});
    throw new PluginOptionsError(OWNER, `✖ tokenCounter answered ${probe instanceof Promise ? "a Promise" : typeof probe}: ctxpipe asks it for each text and needs a number back at once. Give model: "<a known name>" instead (exact, offline)\n  → at tokenCounter`);
  }
  return {
    specificationVersion: "v1",
    name: "tokenCounter",
    exact: false,
    count(text: string) {
      const counted = counter([new HumanMessage(text)]);
      if (typeof counted !== "number" || !Number.isFinite(counted)) {
        throw new PluginOptionsError(OWNER, `✖ tokenCounter answered ${typeof counted === "object" ? "a Promise" : String(counted)}: ctxpipe asks it for each text and needs a number back at once. Give model: "<a known name>" instead (exact, offline)\n  → at tokenCounter`);
      }
      return counted;
    },
  };
}

function modelNameOf(counter: LangChainTokenCounter | undefined): string | undefined {
  if (counter === undefined || typeof counter === "function") return undefined;
  const name = counter.model ?? counter.modelName;
  return typeof name === "string" && name.length > 0 ? name : undefined;
}

function checkOptions(options: CtxpipeTrimOptions): void {
  if (typeof options !== "object" || options === null) throw new PluginOptionsError(OWNER, "✖ expected an options object { maxTokens, model?, ... }\n  → at (options)");
  if (options.strategy !== undefined && options.strategy !== "last") {
    throw new PluginOptionsError(OWNER, `✖ strategy "${String(options.strategy)}" is not supported: ctxpipe keeps the newest messages ("last") and drops the oldest turns\n  → at strategy`);
  }
  if (options.allowPartial !== undefined && options.allowPartial !== false) {
    throw new PluginOptionsError(OWNER, "✖ allowPartial is not supported: ctxpipe sends whole messages (compression: {...} cuts long tool results instead)\n  → at allowPartial");
  }
  if ("textSplitter" in options) throw new PluginOptionsError(OWNER, "✖ textSplitter is not supported: ctxpipe sends whole messages\n  → at textSplitter");
}

/**
 * The user's own system message in place of the prompt ctxpipe made of it, when that prompt is just
 * its text: trimMessages users get back the message they passed (its id, its blocks).
 */
function withStoredSystemMessage(sent: BaseMessage[], given: ReadonlyArray<BaseMessage>): BaseMessage[] {
  const first = sent[0];
  const stored = given[0];
  if (first === undefined || stored === undefined || first.id !== SYSTEM_PROMPT_ID || stored.type !== "system" || stored.text !== first.text) return sent;
  return [stored, ...sent.slice(1)];
}

/** Fits the messages to the budget and says what it did: the messages, the report and the token count. */
export async function ctxpipeTrimMessagesWithReport(messages: ReadonlyArray<BaseMessage>, options: CtxpipeTrimOptions): Promise<CtxpipeTrimResult> {
  checkOptions(options);
  const counter = options.tokenCounter;
  const tokenizer = options.tokenizer ?? (typeof counter === "function" && options.model === undefined ? counterTokenizer(counter) : undefined);
  const counting = resolveCounting(
    { owner: OWNER, modelSource: "tokenCounter's model name" },
    { model: options.model, maxTokens: options.maxTokens, reserveOutputTokens: options.reserveOutputTokens ?? 0, tokenizer, fallback: options.fallback },
    modelNameOf(counter),
  );
  const compression = options.compression ?? false;
  let pipeline = options.pipeline;
  if (pipeline === undefined && compression === false) pipeline = sharedPipeline ??= createLangChainPipeline({ compression: false });
  pipeline ??= createLangChainPipeline({ compression });
  const result = await pipeline.build(importLangChainMessages(messages), {
    renderer: "langchain",
    ...(counting.model === undefined ? {} : { model: counting.model }),
    tokenizer: counting.tokenizer,
    maxTokens: counting.maxTokens,
    reserveOutputTokens: counting.reserveOutputTokens,
    ...(options.tools === undefined ? {} : { tools: options.tools }),
  });
  options.onReport?.(result.report);
  return { messages: withStoredSystemMessage(result.request.messages, messages), report: result.report, tokenCount: result.tokenCount, tokenCountExact: result.tokenCountExact, result };
}

/**
 * A drop-in for trimMessages(messages, { maxTokens, tokenCounter, strategy: "last" }): returns the
 * messages to send, the system message first, within maxTokens, with every tool call next to its
 * results. The input is never changed. Throws BudgetExceededError when the newest turn alone does not fit.
 * Given the options alone, returns a Runnable for chains, as trimMessages(options) does.
 */
export function ctxpipeTrimMessages(options: CtxpipeTrimOptions): Runnable<BaseMessage[], BaseMessage[]>;
export function ctxpipeTrimMessages(messages: ReadonlyArray<BaseMessage>, options: CtxpipeTrimOptions): Promise<BaseMessage[]>;
export function ctxpipeTrimMessages(
  messagesOrOptions: ReadonlyArray<BaseMessage> | CtxpipeTrimOptions,
  options?: CtxpipeTrimOptions,
): Promise<BaseMessage[]> | Runnable<BaseMessage[], BaseMessage[]> {
  if (!Array.isArray(messagesOrOptions)) {
    const given = messagesOrOptions as CtxpipeTrimOptions;
    checkOptions(given);
    return RunnableLambda.from(async (messages: BaseMessage[]) => (await ctxpipeTrimMessagesWithReport(messages, given)).messages).withConfig({ runName: "ctxpipeTrimMessages" });
  }
  return ctxpipeTrimMessagesWithReport(messagesOrOptions as ReadonlyArray<BaseMessage>, options as CtxpipeTrimOptions).then((result) => result.messages);
}
