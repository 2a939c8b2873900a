// A deterministic ModelAdapter for examples and tests: it answers from a script instead of a network,
// streams the text in word-sized pieces, honours the AbortSignal and records every request it got.
import { createHash } from "node:crypto";
import { PluginOptionsError, type RendererName, type RendererOutputMap } from "@ctxpipe/core";
import { z } from "zod";
import type { ModelAdapter, ModelCall, ModelReply, ModelToolCall, ModelUsage } from "./model-adapter.js";
import { MODEL_ERROR_CODES, ModelError, type ModelErrorCode } from "./model-error.js";
import { isRetryableStatus } from "./read-provider-error.js";

export interface ScriptedToolCall {
  readonly name: string;
  /** An object is written as JSON; a string is sent as it is (so a script can send arguments that do not parse). Default {}. */
  readonly arguments?: Readonly<Record<string, unknown>> | string;
  /** Default: an id derived from the request, the same every run (see scriptedModel). */
  readonly id?: string;
}

export interface ScriptedReply {
  readonly text?: string;
  readonly toolCalls?: ReadonlyArray<ScriptedToolCall>;
  /** Default: the renderer's word for "done" or "called tools" ("stop"/"tool_calls", "end_turn"/"tool_use"). */
  readonly stopReason?: string;
  readonly usage?: ModelUsage;
}

export interface ScriptedFailure {
  readonly error: {
    readonly message: string;
    /** Default LLM_SCRIPT_ERROR. */
    readonly code?: ModelErrorCode;
    readonly status?: number;
    readonly providerCode?: string;
    /** Default: true for a retryable status (408, 409, 429, 5xx), LLM_NETWORK_ERROR and LLM_TIMEOUT. */
    readonly retryable?: boolean;
    /** The wait the provider asks for, as an HTTP adapter reads it from Retry-After. */
    readonly retryAfterMs?: number;
  };
}

export type ScriptedAnswer = ScriptedReply | ScriptedFailure;

/** An answer, or a function that makes one from the request (e.g. from the last user message). It may throw a ModelError. */
export type ScriptEntry<Request = RendererOutputMap[RendererName]> = ScriptedAnswer | ((request: Request, callIndex: number) => ScriptedAnswer | Promise<ScriptedAnswer>);

export interface ScriptedModelOptions<R extends RendererName> {
  /** The renderer whose requests the model takes. Default "openai". */
  readonly renderer?: R;
  /**
   * The model the answers stand for, passed to each build as its model. A loop counts for it as for an
   * HTTP adapter's model (e.g. "gpt-4o": exact o200k_base counts and gpt-4o's budget); without one, a
   * loop counts with core's estimate and has no default budget.
   */
  readonly model?: string;
  /** Default "scripted", or "scripted (<model>)". */
  readonly name?: string;
  /** When the script runs out, answer with its last entry again instead of failing. Default false. */
  readonly repeatLast?: boolean;
}

export interface ScriptedCall<Request> {
  /** 0 for the first call. */
  readonly index: number;
  readonly request: Request;
}

export interface ScriptedModel<R extends RendererName = RendererName> extends ModelAdapter<R> {
  /** Every call received, in order, those that failed included. */
  readonly calls: ReadonlyArray<ScriptedCall<RendererOutputMap[R]>>;
}

const FACTORY = "scriptedModel";

const toolCallSchema = z.strictObject({
  name: z.string().min(1),
  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  id: z.string().min(1).optional(),
});

const replySchema = z.strictObject({
  text: z.string().optional(),
  toolCalls: z.array(toolCallSchema).optional(),
  stopReason: z.string().min(1).optional(),
  usage: z.strictObject({ inputTokens: z.number().int().nonnegative(), outputTokens: z.number().int().nonnegative() }).optional(),
});

const failureSchema = z.strictObject({
  error: z.strictObject({
    message: z.string().min(1),
    code: z.enum(MODEL_ERROR_CODES).optional(),
    status: z.number().int().min(100).max(599).optional(),
    providerCode: z.string().min(1).optional(),
    retryable: z.boolean().optional(),
    retryAfterMs: z.number().int().nonnegative().optional(),
  }),
});

const optionsSchema = z.strictObject({
  renderer: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
  repeatLast: z.boolean().optional(),
});

type CheckedAnswer = { reply: z.output<typeof replySchema> } | { failure: z.output<typeof failureSchema>["error"] };

/** Checks one answer; the problems are returned prettified, each path starting at `where`. */
function checkAnswer(answer: unknown, where: string): CheckedAnswer | string {
  const isFailure = typeof answer === "object" && answer !== null && "error" in answer;
  const parsed = (isFailure ? failureSchema : replySchema).safeParse(answer);
  if (!parsed.success) return z.prettifyError(parsed.error).replaceAll("→ at ", `→ at ${where}.`);
  return "error" in parsed.data ? { failure: parsed.data.error } : { reply: parsed.data };
}

/** Word-sized pieces (each word with the spaces after it), so a consumer sees several deltas. */
function textPieces(text: string): string[] {
  return text === "" ? [] : text.split(/(?<=\s)(?=\S)/);
}

/**
 * Ids are derived from the request rather than counted, so they are the same on every run and still
 * unique in a conversation that outlives this object: a restarted process sends a longer request.
 */
function toolCallId(request: unknown, position: number): string {
  const digest = createHash("sha256").update(JSON.stringify(request) ?? "").digest("hex");
  return `call_${digest.slice(0, 12)}_${position + 1}`;
}

function stopReasonOf(renderer: string, calledTools: boolean): string {
  if (renderer === "anthropic") return calledTools ? "tool_use" : "end_turn";
  return calledTools ? "tool_calls" : "stop";
}

/**
 * A model that answers from `script`, one entry per call. Entries are replies
 * (`{ text, toolCalls }`), failures (`{ error: { message, code, status } }`, rejected as ModelError) or
 * functions of the request that return either. A call past the end of the script rejects with
 * LLM_SCRIPT_ERROR, unless `repeatLast` is set.
 */
export function scriptedModel<R extends RendererName = "openai">(
  script: ReadonlyArray<ScriptEntry<RendererOutputMap[R]>>,
  options: ScriptedModelOptions<R> = {},
): ScriptedModel<R> {
  const settingsResult = optionsSchema.safeParse(options);
  if (!settingsResult.success) throw new PluginOptionsError(FACTORY, z.prettifyError(settingsResult.error));
  if (!Array.isArray(script)) throw new PluginOptionsError(FACTORY, "✖ must be an array of script entries\n  → at script");
  const problems = script.flatMap((entry, index) => {
    if (typeof entry === "function") return [];
    const checked = checkAnswer(entry, `script[${index}]`);
    return typeof checked === "string" ? [checked] : [];
  });
  if (problems.length > 0) throw new PluginOptionsError(FACTORY, problems.join("\n"));

  const renderer = (options.renderer ?? "openai") as R;
  const name = options.name ?? (options.model === undefined ? "scripted" : `scripted (${options.model})`);
  const calls: Array<ScriptedCall<RendererOutputMap[R]>> = [];
  const fail = (code: ModelErrorCode, message: string, details: { status?: number; providerCode?: string; retryable?: boolean; retryAfterMs?: number; cause?: unknown } = {}) =>
    new ModelError(code, message, { model: name, ...details });
  const aborted = (signal: AbortSignal) => fail("LLM_ABORTED", "the call was aborted", { cause: signal.reason });

  async function answerFor(request: RendererOutputMap[R], index: number): Promise<CheckedAnswer> {
    const entry = script[index] ?? (options.repeatLast === true ? script.at(-1) : undefined);
    if (entry === undefined) {
      const scripted = script.length === 1 ? "1 call was" : `${script.length} calls were`;
      throw fail("LLM_SCRIPT_ERROR", `the script ran out: call ${index + 1} was made, but only ${scripted} scripted`);
    }
    if (typeof entry !== "function") return checkAnswer(entry, `script[${index}]`) as CheckedAnswer;
    let answer: unknown;
    try {
      answer = await entry(request, index);
    } catch (error) {
      if (error instanceof ModelError) throw error;
      throw fail("LLM_SCRIPT_ERROR", `script entry ${index} threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const checked = checkAnswer(answer, `script[${index}]()`);
    if (typeof checked === "string") throw fail("LLM_SCRIPT_ERROR", `script entry ${index} returned an answer that is not one:\n${checked}`);
    return checked;
  }

  return {
    name,
    renderer,
    ...(options.model === undefined ? {} : { model: options.model }),
    calls,
    async complete({ request, signal, onText }: ModelCall<RendererOutputMap[R]>): Promise<ModelReply> {
      const index = calls.length;
      calls.push({ index, request });
      if (signal?.aborted) throw aborted(signal);
      const answer = await answerFor(request, index);
      if (signal?.aborted) throw aborted(signal);
      if ("failure" in answer) {
        const { message, code = "LLM_SCRIPT_ERROR", status, providerCode, retryable, retryAfterMs } = answer.failure;
        throw fail(code, message, {
          ...(status === undefined ? {} : { status }),
          ...(providerCode === undefined ? {} : { providerCode }),
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
          retryable: retryable ?? (status !== undefined ? isRetryableStatus(status) : code === "LLM_NETWORK_ERROR" || code === "LLM_TIMEOUT"),
        });
      }
      const { reply } = answer;
      const text = reply.text ?? "";
      for (const piece of textPieces(text)) {
        onText?.(piece);
        // A turn of the event loop between pieces, so an abort from elsewhere lands mid-stream as it would over HTTP.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (signal?.aborted) throw aborted(signal);
      }
      const toolCalls: ModelToolCall[] = (reply.toolCalls ?? []).map((call, position) => ({
        id: call.id ?? toolCallId(request, position),
        name: call.name,
        arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}),
      }));
      return {
        text,
        toolCalls,
        stopReason: reply.stopReason ?? stopReasonOf(renderer, toolCalls.length > 0),
        ...(reply.usage === undefined ? {} : { usage: reply.usage }),
      };
    },
  };
}
