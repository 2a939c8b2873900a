// Run mode: the conversation log `run-<runId>` is the single source of truth of a workflow
// run. Each turn works out where the run stands and builds with the run directive; user input,
// failures, answers and tool results are persisted with mode "run" and the run id, so a restarted
// process resumes the run from the log. Where the run stands comes from the loop's own workflow
// (complete_step results in the log) or from the caller: a run context per call, or a workflow engine
// asked at the start of every turn. A step may change the agent and the tool policy. A run ends
// visibly: completing, being abandoned or being stopped persists an ending record (seed 001's
// task_completed / task_abandoned / task_terminated).
import { PluginOptionsError } from "@ctxpipe/core";
import type { ConversationStore, StoredMessage } from "@ctxpipe/store";
import { type AgentInfo, mergeToolPolicies, type RunContext, type RunContextInput, readRunContext, type ToolPolicyConfig } from "@ctxpipe/system-prompt";
import { storeLog } from "../loop/conversation-log.js";
import { formatRunUserInput } from "../loop/format-messages.js";
import { type LoopEventListener, loopEventEmitter } from "../loop/loop-events.js";
import { type LoopOptions, PipelinePerConversation, type ResolvedLoopOptions, resolveLoopOptions } from "../loop/loop-options.js";
import type { LoopResult } from "../loop/loop-result.js";
import { type MessageFactory, type MessageStamp, stampMessage } from "../loop/message-stamp.js";
import { type InterruptedToolCallsPolicy, interruptedToolCallsOption, settleInterruptedCalls } from "../loop/settle-interrupted-calls.js";
import { runToolLoop, type TurnSetup } from "../loop/tool-loop.js";
import type { LoopTool } from "../tools/loop-tool.js";
import { toolsAllowedBy } from "../tools/tools-allowed-by.js";
import { completeStepTool } from "./complete-step-tool.js";
import { RunEndedError } from "./run-ended-error.js";
import { endingRecordBody, type RunEndingRequest, runEndingOf } from "./run-ending.js";
import { outgoingEdges, type RunState, runStateOf, withEnding } from "./run-state.js";
import { type ParsedRunTurn, type RunEngine, readRunTurn } from "./run-turn.js";
import { type ParsedWorkflow, parseWorkflow, type WorkflowDefinition } from "./workflow-definition.js";

export interface RunLoopOptions extends LoopOptions {
  /** The run mode log lives in the store: it is required. */
  readonly store: ConversationStore;
  /** The loop owns the run's steps: it offers complete_step and reads the step from the log. Give this or `engine`. */
  readonly workflow?: WorkflowDefinition;
  /**
   * A workflow engine of yours owns the run's steps: asked at the start of every turn with
   * `{ runId, messages, turn }`, it returns `{ runContext, agent?, toolPolicy?, tools? }`. Give this or `workflow`.
   */
  readonly engine?: RunEngine;
  readonly agent?: AgentInfo;
  /** The agent-level tool policy. */
  readonly toolPolicy?: ToolPolicyConfig;
  /** How user input is stored. Default `USER_INPUT (step: <id>)\n<text>`, or `USER_INPUT\n<text>` when the step is the engine's to say. */
  readonly formatUserInput?: (stepId: string | undefined, text: string) => string;
}

export interface RunContinueOptions {
  readonly runId: string;
  /** Persisted before the model is called; leave it out to let the run go on from its log. Resumes a terminated run. */
  readonly userInput?: string;
  /**
   * Where the run stands, for every turn of this call, nested or flat; the loop then neither offers
   * complete_step nor asks the engine. With a workflow, the step of that id sets the agent and tool policy.
   */
  readonly runContext?: RunContextInput;
  /** Aborting ends the call with status "aborted" and records the run as terminated by "user". */
  readonly signal?: AbortSignal;
  readonly onText?: (delta: string) => void;
  readonly onEvent?: LoopEventListener;
}

export interface RunAbandonOptions {
  /** Why the run is given up; stored as the record's `reason`. */
  readonly reason: string;
  /** What the run got done, stored as `{"partialResult": …}`; any JSON value. */
  readonly partialResult?: unknown;
}

export interface RunTerminateOptions {
  /** Who stopped the run, stored as `terminatedBy`. Default "user". */
  readonly by?: string;
  /** The record's text. Default "The run was stopped before it finished." */
  readonly reason?: string;
}

export interface RunResult extends LoopResult {
  readonly runId: string;
  /** `run-<runId>`, the run's log. */
  readonly conversationId: string;
  /** Where the run stands after this call; `state.status` and `state.ending` say how it ended, if it did. */
  readonly state: RunState;
}

const OWNER = "RunLoop";

export function runConversationId(runId: string): string {
  return `run-${runId}`;
}

/** What one turn is built with. */
interface TurnPlan extends ParsedRunTurn {
  /** complete_step, when the loop owns the workflow and it is still running. */
  readonly ownTools?: ReadonlyArray<LoopTool>;
}

/** A continue() in progress, so that abandon() and terminate() stop it rather than write beside it. */
interface Flight {
  readonly controller: AbortController;
  done: Promise<unknown>;
  ending?: RunEndingRequest;
  recorded?: boolean;
}

export class RunLoop {
  readonly #options: RunLoopOptions;
  readonly #resolved: ResolvedLoopOptions;
  readonly #workflow: ParsedWorkflow | undefined;
  readonly #pipelines: PipelinePerConversation;
  readonly #flights = new Map<string, Flight>();
  readonly #interruptedToolCalls: InterruptedToolCallsPolicy;

  constructor(options: RunLoopOptions) {
    this.#resolved = resolveLoopOptions(OWNER, options);
    this.#interruptedToolCalls = interruptedToolCallsOption(OWNER, options.interruptedToolCalls);
    if (options.store === undefined) throw new PluginOptionsError(OWNER, "store: run mode keeps its log in a store; give one");
    const hasWorkflow = options.workflow !== undefined;
    const hasEngine = options.engine !== undefined;
    if (hasWorkflow && hasEngine) {
      throw new PluginOptionsError(OWNER, "workflow, engine: give one, not both: workflow when the loop owns the run's steps, engine when a workflow engine of yours does");
    }
    if (!hasWorkflow && !hasEngine) {
      throw new PluginOptionsError(OWNER, "workflow, engine: give one: workflow when the loop owns the run's steps (complete_step), engine when a workflow engine of yours says where the run stands");
    }
    if (hasEngine && typeof options.engine !== "function") {
      throw new PluginOptionsError(OWNER, `engine: must be a function ({ runId, messages, turn }) => { runContext, agent?, toolPolicy?, tools? }, got ${typeof options.engine}`);
    }
    this.#workflow = hasWorkflow ? parseWorkflow(OWNER, options.workflow) : undefined;
    this.#options = options;
    this.#pipelines = new PipelinePerConversation(options);
  }

  /**
   * Where the run stands, read from its log. With an engine, the steps are the engine's: the state says
   * whether the run goes on or how it ended, with no current step.
   */
  async state(runId: string): Promise<RunState> {
    const { messages } = await this.#options.store.load(runConversationId(checkRunId(runId)));
    return this.#stateOf(messages, undefined);
  }

  /** The run directive the prompt carries for a state: the post-completion profile once completed. Needs the loop's own workflow. */
  runContextOf(state: RunState): RunContext {
    const workflow = this.#owned("runContextOf()");
    const common = { packageName: workflow.packageName, workflowName: workflow.name, state: { stepsCompleted: state.stepsCompleted } };
    if (state.status === "completed" || state.currentStep === undefined) return { ...common, status: "completed" };
    const edges = outgoingEdges(workflow, state.currentStep.id);
    const { id, name, instruction } = state.currentStep;
    return {
      ...common,
      status: "running",
      currentStep: { id, name, instruction },
      graph: { outgoingEdges: edges.map((edge) => ({ label: edge.label, targetNodeId: edge.to, ...(edge.isDefault === undefined ? {} : { isDefault: edge.isDefault }) })) },
    };
  }

  async continue(call: RunContinueOptions): Promise<RunResult> {
    const runId = checkRunId(call.runId);
    // Checked before anything is persisted: a bad context leaves the log as it was.
    const callContext = call.runContext === undefined ? undefined : readRunContext(call.runContext);
    const conversationId = runConversationId(runId);
    const store = this.#options.store;
    const log = storeLog(store, conversationId);
    const turnStamp: { agent: AgentInfo | undefined } = { agent: this.#options.agent };
    const factory: MessageFactory = {
      newId: this.#resolved.newId,
      now: this.#resolved.now,
      // Read for every message: a step's agent signs what is written on that step.
      get stamp(): MessageStamp {
        return { mode: "run", runId, ...(turnStamp.agent === undefined ? {} : { agentId: turnStamp.agent.id }) };
      },
    };

    const before = (await log.load()).messages;
    const standing = this.#stateOf(before, callContext);
    const userInput = call.userInput !== undefined && call.userInput.trim() !== "" ? call.userInput : undefined;
    // An abandoned run takes nothing more; a completed one takes follow-up questions (answered with the
    // post-completion prompt), a terminated one new input that resumes it.
    if (standing.ending !== undefined && (standing.ending.status === "abandoned" || userInput === undefined)) throw new RunEndedError(runId, standing.ending);

    const flight: Flight = { controller: new AbortController(), done: Promise.resolve() };
    const signal = call.signal === undefined ? flight.controller.signal : AbortSignal.any([call.signal, flight.controller.signal]);
    const run = this.#run(call, { runId, conversationId, log, factory, turnStamp, callContext, standing, userInput, before, signal, flight });
    flight.done = run;
    this.#flights.set(runId, flight);
    try {
      return await run;
    } finally {
      if (this.#flights.get(runId) === flight) this.#flights.delete(runId);
    }
  }

  /**
   * Gives the run up: persists its task_abandoned record (`reason`, `{"partialResult": …}`) once. A
   * continue() of the run in progress in this loop is stopped first. A completed or abandoned run
   * refuses with RunEndedError (a completed run's follow-up in flight goes on).
   */
  async abandon(runId: string, options: RunAbandonOptions): Promise<RunState> {
    checkRunId(runId);
    if (typeof options?.reason !== "string" || options.reason.trim() === "") throw new PluginOptionsError(OWNER, `reason: abandon() needs a non-empty reason, got ${JSON.stringify(options?.reason)}`);
    if (options.partialResult !== undefined && !isJson(options.partialResult)) throw new PluginOptionsError(OWNER, "partialResult: must be a JSON value (text, a number, an object…)");
    return this.#end(runId, { status: "abandoned", reason: options.reason, ...(options.partialResult === undefined ? {} : { partialResult: options.partialResult }) });
  }

  /**
   * Stops the run: persists its task_terminated record (`terminatedBy`, default "user") once; a run
   * already terminated is left as it is. A continue() of the run in progress in this loop is stopped
   * first. continue() with new userInput resumes it. A completed or abandoned run refuses with RunEndedError.
   */
  async terminate(runId: string, options: RunTerminateOptions = {}): Promise<RunState> {
    checkRunId(runId);
    const by = options.by ?? "user";
    if (typeof by !== "string" || by.trim() === "") throw new PluginOptionsError(OWNER, `by: must be a non-empty string, got ${JSON.stringify(by)}`);
    if (options.reason !== undefined && typeof options.reason !== "string") throw new PluginOptionsError(OWNER, `reason: must be a string, got ${typeof options.reason}`);
    return this.#end(runId, { status: "terminated", by, ...(options.reason === undefined ? {} : { reason: options.reason }) });
  }

  async #end(runId: string, request: RunEndingRequest): Promise<RunState> {
    const flight = this.#flights.get(runId);
    if (flight !== undefined) {
      // A completed run's follow-up in flight is not stopped by a refusal.
      const settled = runEndingOf((await this.#options.store.load(runConversationId(runId))).messages);
      if (settled !== undefined && settled.status !== "terminated") throw new RunEndedError(runId, settled);
      flight.ending ??= request;
      flight.controller.abort();
      await flight.done.catch(() => undefined);
      if (flight.recorded === true && flight.ending === request) return this.state(runId);
    }
    const log = storeLog(this.#options.store, runConversationId(runId));
    const { messages } = await log.load();
    if (messages.length === 0) throw new PluginOptionsError(OWNER, `runId: run ${JSON.stringify(runId)} has no messages: there is nothing to ${request.status === "abandoned" ? "abandon" : "terminate"}`);
    const ending = runEndingOf(messages);
    if (ending !== undefined && ending.status !== "terminated") throw new RunEndedError(runId, ending);
    // Exactly once per ending: a terminated run that was not resumed is terminated already.
    if (ending?.status === "terminated" && request.status === "terminated") return this.#stateOf(messages, undefined);
    const agent = this.#options.agent;
    const factory: MessageFactory = { newId: this.#resolved.newId, now: this.#resolved.now, stamp: { mode: "run", runId, ...(agent === undefined ? {} : { agentId: agent.id }) } };
    await log.append([stampMessage(factory, endingRecordBody(request))]);
    return this.state(runId);
  }

  async #run(call: RunContinueOptions, at: RunCall): Promise<RunResult> {
    const { runId, conversationId, log, factory, callContext, standing, userInput, flight } = at;
    const persisted: StoredMessage[] = [];
    // One numbering for the call: the user input, the loop's events and the ending record.
    const events = loopEventEmitter(call);
    const persist = async (message: StoredMessage) => {
      await log.append([message]);
      persisted.push(message);
      events.emit({ type: "persisted", message });
    };

    // Calls a stopped process left without results get them first, so that they stay right after their
    // call; a rerun may only use the tools of the step the run stands on.
    const engine = callContext === undefined ? this.#options.engine : undefined;
    const stepTools = callContext !== undefined ? this.#setupFor(this.#planFor(callContext)).tools : engine === undefined ? this.#setupFor(this.#ownedPlan(at.before)).tools : this.#loopTools();
    const settled = await settleInterruptedCalls({ log, tools: stepTools, messages: factory, policy: this.#interruptedToolCalls, signal: at.signal, events });
    persisted.push(...settled);

    let userMessage: StoredMessage | undefined;
    if (userInput !== undefined) {
      // The step the input answers: the loop's own, the call's, or unknown when the engine holds it.
      const stepNow = settled.length === 0 ? standing : this.#stateOf((await log.load()).messages, callContext);
      const stepId = callContext !== undefined ? callContext.currentStep?.id : stepNow.currentStep?.id;
      const format = this.#options.formatUserInput ?? formatRunUserInput;
      userMessage = stampMessage(factory, { role: "user", content: format(stepId, userInput) });
      await persist(userMessage);
    }
    if (userInput === undefined && at.before.length === 0) {
      throw new PluginOptionsError(OWNER, `userInput: run ${JSON.stringify(runId)} has no messages yet: start it with a non-blank userInput`);
    }

    const toolNames = (this.#options.tools ?? []).map((tool) => tool.name);
    let plan: TurnPlan | undefined;
    let turns = 0;
    // Every turn asks where the run stands: the call's context, the engine (which sees the log as it
    // stands, the last turn's tool results included), or the loop's own workflow read from the log.
    const setupTurn = async (messages: ReadonlyArray<StoredMessage>): Promise<TurnSetup> => {
      if (callContext !== undefined) plan = this.#planFor(callContext);
      else if (engine !== undefined) {
        const turn = turns++;
        plan = readRunTurn(await engine({ runId, messages, turn }), { runId, turn, toolNames });
      } else plan = this.#ownedPlan(messages);
      at.turnStamp.agent = plan.agent ?? this.#options.agent;
      return this.#setupFor(plan);
    };

    const result = await runToolLoop({
      log,
      pipeline: this.#pipelines.for(conversationId),
      model: this.#options.model,
      buildOptions: {
        // The run's log name keys OpenAI's prompt cache, so its turns reach the cache their prefix is in; a key the caller gives wins.
        promptCacheKey: conversationId,
        ...this.#options.buildOptions,
        mode: "run",
        ...(this.#options.agent === undefined ? {} : { agent: this.#options.agent }),
        ...(this.#options.toolPolicy === undefined ? {} : { toolPolicy: this.#options.toolPolicy }),
        ...(this.#options.systemToolPolicy === undefined ? {} : { systemToolPolicy: this.#options.systemToolPolicy }),
      },
      setupTurn,
      messages: factory,
      // Compression protects the loop from the user's input on (settled results belong to the history before it).
      ...(userMessage === undefined ? {} : { loopStartId: userMessage.id }),
      extras: [],
      maxTurns: this.#resolved.maxTurns,
      maxRepeatedFailures: this.#resolved.maxRepeatedFailures,
      maxRetries: this.#resolved.maxRetries,
      retryDelayMs: this.#resolved.retryDelayMs,
      retryTiming: this.#resolved.retryTiming,
      signal: at.signal,
      persisted,
      events,
    });

    // The ending, recorded once: a stopped call is a terminated run (or the ending abandon() asked for);
    // a completed workflow is recorded with the model's final answer.
    const messages = (await log.load()).messages;
    const lastContext = plan?.runContext;
    const state = this.#stateOf(messages, callContext ?? (engine === undefined ? undefined : lastContext));
    let ending: RunEndingRequest | undefined;
    // A follow-up on a completed run that is stopped leaves the run completed: there is nothing to terminate.
    if (result.status === "aborted" && standing.status !== "completed") ending = flight.ending ?? { status: "terminated", by: "user" };
    else if (result.status === "completed" && state.status === "completed" && state.ending === undefined) ending = { status: "completed", result: result.text };
    if (ending === undefined) return { ...result, runId, conversationId, state };
    // The ending's agent is the loop's: it speaks for the run, not for the step it stopped on.
    at.turnStamp.agent = this.#options.agent;
    const record = stampMessage(factory, endingRecordBody(ending));
    await persist(record);
    flight.recorded = ending === flight.ending;
    const ended = this.#stateOf([...messages, record], callContext ?? (engine === undefined ? undefined : lastContext));
    return { ...result, persisted: [...result.persisted, record], runId, conversationId, state: ended };
  }

  /** The state for a log: the loop's own workflow read from it, or the caller's run context with the log's ending. */
  #stateOf(messages: ReadonlyArray<StoredMessage>, context: RunContext | undefined): RunState {
    if (this.#workflow !== undefined && context === undefined) return runStateOf(this.#workflow, messages);
    const step = context?.status === "completed" ? undefined : context?.currentStep;
    const stepsCompleted = context?.state?.stepsCompleted ?? [];
    return withEnding({ status: context?.status === "completed" ? "completed" : "running", currentStep: step, stepsCompleted }, runEndingOf(messages));
  }

  /** The loop's own workflow: the step from the log, complete_step while it runs. */
  #ownedPlan(messages: ReadonlyArray<StoredMessage>): TurnPlan {
    const workflow = this.#owned("a turn");
    const state = { current: runStateOf(workflow, messages) };
    const step = state.current.currentStep;
    const running = state.current.status === "running";
    return {
      runContext: this.runContextOf(state.current),
      ...(running && step?.agent !== undefined ? { agent: step.agent } : {}),
      ...(running && step?.toolPolicy !== undefined ? { toolPolicy: step.toolPolicy } : {}),
      ...(running ? { ownTools: [completeStepTool(workflow, state)] } : {}),
    };
  }

  /** A caller's run context: with a workflow, the step of that id brings its agent and tool policy. */
  #planFor(context: RunContext): TurnPlan {
    const id = context.status === "completed" ? undefined : context.currentStep?.id;
    const step = id === undefined ? undefined : this.#workflow?.steps.find((candidate) => candidate.id === id);
    return { runContext: context, ...(step?.agent === undefined ? {} : { agent: step.agent }), ...(step?.toolPolicy === undefined ? {} : { toolPolicy: step.toolPolicy }) };
  }

  /** The tools and build options of a turn: the step's agent and tool policy replace the loop's; the system policy still applies, a deny winning. */
  #setupFor(plan: TurnPlan): TurnSetup {
    const toolPolicy = plan.toolPolicy ?? this.#options.toolPolicy;
    const policy = mergeToolPolicies(this.#options.systemToolPolicy, toolPolicy);
    const allowed = toolsAllowedBy(this.#options.tools ?? [], policy);
    const tools = plan.tools === undefined ? allowed : allowed.filter((tool) => plan.tools!.includes(tool.name));
    return {
      tools: [...tools, ...(plan.ownTools ?? [])],
      policy,
      options: {
        runContext: plan.runContext,
        ...(plan.agent === undefined ? {} : { agent: plan.agent }),
        ...(plan.toolPolicy === undefined ? {} : { toolPolicy: plan.toolPolicy }),
      },
    };
  }

  /** The loop's tools its own policies allow, before any step narrows them. */
  #loopTools(): LoopTool[] {
    return toolsAllowedBy(this.#options.tools ?? [], mergeToolPolicies(this.#options.systemToolPolicy, this.#options.toolPolicy));
  }

  #owned(what: string): ParsedWorkflow {
    if (this.#workflow === undefined) throw new PluginOptionsError(OWNER, `workflow: ${what} needs the loop's own workflow; this loop's steps are its engine's`);
    return this.#workflow;
  }
}

interface RunCall {
  readonly runId: string;
  readonly conversationId: string;
  readonly log: ReturnType<typeof storeLog>;
  readonly factory: MessageFactory;
  readonly turnStamp: { agent: AgentInfo | undefined };
  readonly callContext: RunContext | undefined;
  readonly standing: RunState;
  readonly userInput: string | undefined;
  readonly before: ReadonlyArray<StoredMessage>;
  readonly signal: AbortSignal;
  readonly flight: Flight;
}

function checkRunId(runId: string): string {
  if (typeof runId !== "string" || runId.trim() === "") throw new PluginOptionsError(OWNER, `runId: must be a non-empty string, got ${JSON.stringify(runId)}`);
  return runId;
}

function isJson(value: unknown): boolean {
  try {
    return JSON.stringify(value) !== undefined;
  } catch {
    return false;
  }
}


