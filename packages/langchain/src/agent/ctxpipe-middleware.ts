// ctxpipe as a LangChain v1 agent middleware: before each model call (wrapModelCall) the agent's
// messages go through the whole pipeline (compress, filter, repair, system prompt, validate, render)
// and the model receives the result. The agent's state is left as it is: it keeps the full history,
// and only what this one call sends is fitted. Writing the fitted list back (as trimming in
// beforeModel would) would throw away, for good, messages a later call with more room, or a summary,
// could still use, and would make repairs (a synthesized answer to an interrupted call) look like
// things that happened.
import { type CompressionPluginOptions, DEFAULT_STRATEGIES } from "@ctxpipe/compression";
import {
  type BuildReport,
  type BuildResult,
  DEFAULT_MAX_OFFLOADED_CHARS,
  DEFAULT_RETRIEVE_MAX_CHARS,
  isBlank,
  OffloadedTextCache,
  type Pipeline,
  type PipelinePlugin,
  PluginOptionsError,
  RETRIEVE_CONTEXT_DESCRIPTION,
  RETRIEVE_CONTEXT_PARAMETERS,
  RETRIEVE_CONTEXT_TOOL_NAME,
  readOffloadedRange,
  retrieveContextArguments,
  SYSTEM_PROMPT_ID,
  type Tokenizer,
} from "@ctxpipe/core";
import type { EncodingName } from "@ctxpipe/tokenizers";
import { type BaseMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { type AgentMiddleware, createMiddleware, tool } from "langchain";
import { createLangChainPipeline } from "../counting/default-pipeline.js";
import { resolveCounting } from "../counting/resolve-counting.js";
import { importLangChainMessages } from "../messages/import-langchain-messages.js";
import type { LangChainRendererPluginOptions } from "../renderer/langchain-renderer-plugin.js";
import type { LangChainRequest } from "../renderer/langchain-request.js";
import { toolDefinitionsOf } from "./tool-definitions.js";

const NAME = "ctxpipe";
const OWNER = "ctxpipeMiddleware";

export interface CtxpipeMiddlewareOptions {
  /**
   * Count as this registry model ("gpt-4o", "claude-sonnet-4-5"...). Default: the agent's model's own
   * name (its `model` or `modelName` field). Counts are offline: exact for OpenAI models, a flagged
   * approximation for Claude and Gemini.
   */
  readonly model?: string;
  /** The budget of each request (prompt + answer). Default: the model's context window. Required for a model the registry does not know. */
  readonly maxTokens?: number;
  /** Tokens kept free for the answer. Default: the model's output limit (at most 32,000 and a quarter of maxTokens). */
  readonly reserveOutputTokens?: number;
  /** Count with this tokenizer instead of the registry's. */
  readonly tokenizer?: Tokenizer;
  /** Encoding for a model the registry does not know, when maxTokens is given. Default "o200k_base". */
  readonly fallback?: EncodingName;
  /**
   * Compression, as ctxpipe's agent loops have it by default: cut long tool results, clear old ones,
   * then drop the oldest turns, with a short note to the model. False: only whole turns are dropped.
   */
  readonly compression?: CompressionPluginOptions | false;
  /** Plugins added to the default pipeline. */
  readonly plugins?: ReadonlyArray<PipelinePlugin>;
  /** Options of the LangChain renderer in the default pipeline. */
  readonly renderer?: LangChainRendererPluginOptions;
  /** A pipeline of your own, used as given (it needs a LangChainRendererPlugin). */
  readonly pipeline?: Pipeline;
  /**
   * Register the retrieve_context tool, with which the model reads back a tool result compression cut
   * or cleared (their markers name it). Default true when compression is on.
   */
  readonly retrieveContextTool?: boolean;
  /**
   * The most characters one retrieve_context call returns; the reply says which range it holds and
   * how to ask for the next part. Default: as ctxpipe's loops, a quarter of the last build's prompt
   * budget in characters, between 1,000 and 20,000, so what the model reads back fits its next prompts.
   */
  readonly retrieveMaxChars?: number;
  /**
   * The most characters of cut or cleared originals kept in memory for retrieve_context, all threads
   * together (the texts seen longest ago go first; the newest stays). Default 20,000,000 (about 40 MB).
   */
  readonly maxOffloadedChars?: number;
  /** Called after each build, before the model is called. */
  readonly onBuild?: (build: CtxpipeModelCallBuild) => void;
}

/** What one model call was sent, and why. */
export interface CtxpipeModelCallBuild {
  /** The messages the model receives after its system message. */
  readonly messages: BaseMessage[];
  /** The system message it receives, or undefined for none. */
  readonly systemMessage: SystemMessage | undefined;
  /** What happened to each message of the agent's state: kept, dropped, repaired, cleared... and why. */
  readonly report: BuildReport;
  /** Tokens of what is sent (system message, messages and tools), as counted for the budget. */
  readonly tokenCount: number;
  readonly tokenCountExact: boolean;
  /** The model counted for, when known. */
  readonly model: string | undefined;
  readonly maxTokens: number;
  readonly reserveOutputTokens: number;
  readonly result: BuildResult<LangChainRequest>;
}

export type CtxpipeAgentMiddleware = AgentMiddleware & {
  /** The build of the latest model call, or undefined before the first. */
  readonly lastBuild: CtxpipeModelCallBuild | undefined;
};

/** The name a LangChain chat model (or a model bound to tools) goes by, e.g. ChatOpenAI's `model`. */
function modelNameOf(model: unknown): string | undefined {
  for (let candidate = model, depth = 0; typeof candidate === "object" && candidate !== null && depth < 3; depth++) {
    const { model: name, modelName } = candidate as { model?: unknown; modelName?: unknown };
    if (typeof name === "string" && name.length > 0) return name;
    if (typeof modelName === "string" && modelName.length > 0) return modelName;
    candidate = (candidate as { bound?: unknown }).bound;
  }
  return undefined;
}

/**
 * How much one retrieve_context call returns by default, as the loops size it: a quarter of the last
 * build's prompt budget in characters (at most an eighth of it in tokens), between 1,000 and 20,000.
 */
function defaultRetrieveMaxChars(build: BuildResult<unknown> | undefined): number {
  const available = build?.report.budget?.available;
  if (available === undefined) return DEFAULT_RETRIEVE_MAX_CHARS;
  return Math.max(1000, Math.min(DEFAULT_RETRIEVE_MAX_CHARS, Math.floor(available / 4)));
}

function countOption(name: "retrieveMaxChars" | "maxOffloadedChars", value: number | undefined, min: number): number | undefined {
  if (value !== undefined && !(typeof value === "number" && Number.isSafeInteger(value) && value >= min)) {
    throw new PluginOptionsError(OWNER, `✖ expected a whole number of at least ${min}, got ${typeof value === "number" ? value : typeof value}\n  → at ${name}`);
  }
  return value;
}

/**
 * A createAgent middleware that fits every model call with ctxpipe:
 * `createAgent({ model, tools, middleware: [ctxpipeMiddleware()] })`.
 */
export function ctxpipeMiddleware(options: CtxpipeMiddlewareOptions = {}): CtxpipeAgentMiddleware {
  const compression: CompressionPluginOptions | false =
    options.compression === false
      ? false
      : // The loops' default, with the notice on: a model told that results were cut asks instead of guessing.
        { notice: true, ...(options.compression ?? { strategies: [...DEFAULT_STRATEGIES] }) };
  const pipeline = options.pipeline ?? createLangChainPipeline({ compression, renderer: options.renderer, plugins: options.plugins });
  const withTool = options.retrieveContextTool ?? compression !== false;
  const retrieveMaxChars = countOption("retrieveMaxChars", options.retrieveMaxChars, 1);
  // Offloaded texts of every build so far: a marker sent in one call may be followed up in a later one.
  const offloaded = new OffloadedTextCache(countOption("maxOffloadedChars", options.maxOffloadedChars, 0) ?? DEFAULT_MAX_OFFLOADED_CHARS);
  let lastBuild: CtxpipeModelCallBuild | undefined;

  // The reply to a call, or an Error whose message says the model what to fix.
  const read = (args: unknown): string => {
    const { handle, from, to } = retrieveContextArguments(args);
    const text = offloaded.get(handle);
    if (text === undefined) throw new Error(`no text is kept under the handle ${JSON.stringify(handle)} in this conversation; use a handle exactly as a marker or placeholder names it`);
    const maxChars = retrieveMaxChars ?? defaultRetrieveMaxChars(lastBuild?.result);
    return readOffloadedRange(text, handle, { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }), maxChars });
  };
  // The loops' definition (same description and JSON schema), so the model sees one retrieve_context.
  const retrieveContext = tool(async (input: unknown) => read(input), {
    name: RETRIEVE_CONTEXT_TOOL_NAME,
    description: RETRIEVE_CONTEXT_DESCRIPTION,
    schema: RETRIEVE_CONTEXT_PARAMETERS as unknown as Record<string, unknown>,
  });

  const middleware = createMiddleware({
    name: NAME,
    tools: withTool ? [retrieveContext] : [],
    // Calls to retrieve_context are answered here, before LangChain checks the arguments against the
    // schema: its message ("did not match expected schema") would not say which argument to fix.
    wrapToolCall: async (request, handler) => {
      if (!withTool || request.tool !== retrieveContext) return handler(request);
      const { id, args } = request.toolCall;
      try {
        return new ToolMessage({ content: read(args), tool_call_id: id ?? "", name: RETRIEVE_CONTEXT_TOOL_NAME, status: "success" });
      } catch (error) {
        return new ToolMessage({ content: `Error: ${(error as Error).message}`, tool_call_id: id ?? "", name: RETRIEVE_CONTEXT_TOOL_NAME, status: "error" });
      }
    },
    wrapModelCall: async (request, handler) => {
      const counting = resolveCounting(
        { owner: OWNER, modelSource: "the agent's model (its model or modelName field)" },
        { model: options.model, maxTokens: options.maxTokens, reserveOutputTokens: options.reserveOutputTokens, tokenizer: options.tokenizer, fallback: options.fallback },
        modelNameOf(request.model),
      );
      const systemText = request.systemMessage?.text ?? request.systemPrompt ?? "";
      const result = await pipeline.build(importLangChainMessages(request.messages), {
        renderer: "langchain",
        ...(counting.model === undefined ? {} : { model: counting.model }),
        tokenizer: counting.tokenizer,
        maxTokens: counting.maxTokens,
        reserveOutputTokens: counting.reserveOutputTokens,
        tools: toolDefinitionsOf(request.tools),
        ...(isBlank(systemText) ? {} : { system: systemText }),
      });
      offloaded.keep(result.report.offloaded);
      const rendered = result.request.messages;
      const first = rendered[0];
      let systemMessage: SystemMessage | undefined;
      let messages = rendered;
      if (first !== undefined && SystemMessage.isInstance(first)) {
        // The agent's own system message when the prompt is just its text: it may carry cache_control blocks.
        systemMessage = first.id === SYSTEM_PROMPT_ID && first.text === systemText && request.systemMessage !== undefined ? request.systemMessage : first;
        messages = rendered.slice(1);
      }
      lastBuild = {
        messages,
        systemMessage,
        report: result.report,
        tokenCount: result.tokenCount,
        tokenCountExact: result.tokenCountExact,
        model: counting.model,
        maxTokens: counting.maxTokens,
        reserveOutputTokens: counting.reserveOutputTokens,
        result,
      };
      options.onBuild?.(lastBuild);
      return handler({ ...request, messages, systemMessage: systemMessage ?? new SystemMessage("") });
    },
  });
  // A getter on the middleware object itself, so `lastBuild` always reads the latest build.
  return Object.defineProperty(middleware as typeof middleware & { readonly lastBuild: CtxpipeModelCallBuild | undefined }, "lastBuild", { get: () => lastBuild, enumerable: false });
}

