// Run mode: the conversation log `run-<runId>` is the single source of truth of a workflow
// run. Each turn loads it, works out the current step from it, and builds with the run directive; user
// input, failures, answers and tool results are persisted with mode "run" and the run id, so a
// restarted process resumes the run from the log. Once the workflow completes, the prompt switches to
// the post-completion profile, which carries no active-step information.
import { PluginOptionsError } from "@ctxpipe/core";
import type { ConversationStore, StoredMessage } from "@ctxpipe/store";
import { type AgentInfo, mergeToolPolicies, type RunContext, type ToolPolicyConfig } from "@ctxpipe/system-prompt";
import { storeLog } from "../loop/conversation-log.js";
import { formatRunUserInput } from "../loop/format-messages.js";
import type { LoopEventListener } from "../loop/loop-events.js";
import { type LoopOptions, PipelinePerConversation, type ResolvedLoopOptions, resolveLoopOptions } from "../loop/loop-options.js";
import type { LoopResult } from "../loop/loop-result.js";
import { type MessageFactory, stampMessage } from "../loop/message-stamp.js";
import { runToolLoop } from "../loop/tool-loop.js";
import { toolsAllowedBy } from "../tools/tools-allowed-by.js";
import { completeStepTool } from "./complete-step-tool.js";
import { outgoingEdges, type RunState, runStateOf } from "./run-state.js";
import { type ParsedWorkflow, parseWorkflow, type WorkflowDefinition } from "./workflow-definition.js";

export interface RunLoopOptions extends LoopOptions {
  /** The run mode log lives in the store: it is required. */
  readonly store: ConversationStore;
  readonly workflow: WorkflowDefinition;
  readonly agent?: AgentInfo;
  /** The agent-level tool policy. */
  readonly toolPolicy?: ToolPolicyConfig;
  /** How user input is stored. Default `USER_INPUT (step: <id>)\n<text>`. */
  readonly formatUserInput?: (stepId: string | undefined, text: string) => string;
}

export interface RunContinueOptions {
  readonly runId: string;
  /** Persisted before the model is called; leave it out to let the run go on from its log. */
  readonly userInput?: string;
  readonly signal?: AbortSignal;
  readonly onText?: (delta: string) => void;
  readonly onEvent?: LoopEventListener;
}

export interface RunResult extends LoopResult {
  readonly runId: string;
  /** `run-<runId>`, the run's log. */
  readonly conversationId: string;
  /** Where the run stands after this call, as its log says. */
  readonly state: RunState;
}

const OWNER = "RunLoop";

export function runConversationId(runId: string): string {
  return `run-${runId}`;
}

export class RunLoop {
  readonly #options: RunLoopOptions;
  readonly #resolved: ResolvedLoopOptions;
  readonly #workflow: ParsedWorkflow;
  readonly #pipelines: PipelinePerConversation;

  constructor(options: RunLoopOptions) {
    this.#resolved = resolveLoopOptions(OWNER, options);
    if (options.store === undefined) throw new PluginOptionsError(OWNER, "store: run mode keeps its log in a store; give one");
    this.#workflow = parseWorkflow(OWNER, options.workflow);
    this.#options = options;
    this.#pipelines = new PipelinePerConversation(options);
  }

  /** Where the run stands, read from its log. */
  async state(runId: string): Promise<RunState> {
    const { messages } = await this.#options.store.load(runConversationId(checkRunId(runId)));
    return runStateOf(this.#workflow, messages);
  }

  /** The run directive the prompt carries for a state: the post-completion profile once completed. */
  runContextOf(state: RunState): RunContext {
    const common = { packageName: this.#workflow.packageName, workflowName: this.#workflow.name, state: { stepsCompleted: state.stepsCompleted } };
    if (state.status === "completed" || state.currentStep === undefined) return { ...common, status: "completed" };
    const edges = outgoingEdges(this.#workflow, state.currentStep.id);
    return {
      ...common,
      status: "running",
      currentStep: state.currentStep,
      graph: { outgoingEdges: edges.map((edge) => ({ label: edge.label, targetNodeId: edge.to, ...(edge.isDefault === undefined ? {} : { isDefault: edge.isDefault }) })) },
    };
  }

  async continue(call: RunContinueOptions): Promise<RunResult> {
    const runId = checkRunId(call.runId);
    const conversationId = runConversationId(runId);
    const log = storeLog(this.#options.store, conversationId);
    const agent = this.#options.agent;
    const factory: MessageFactory = {
      newId: this.#resolved.newId,
      now: this.#resolved.now,
      stamp: { mode: "run", runId, ...(agent === undefined ? {} : { agentId: agent.id }) },
    };

    const persisted: StoredMessage[] = [];
    if (call.userInput !== undefined && call.userInput.trim() !== "") {
      const state = runStateOf(this.#workflow, (await log.load()).messages);
      const format = this.#options.formatUserInput ?? formatRunUserInput;
      const message = stampMessage(factory, { role: "user", content: format(state.currentStep?.id, call.userInput) });
      await log.append([message]);
      persisted.push(message);
      call.onEvent?.({ type: "persisted", message });
    }

    if (persisted.length === 0 && (await log.load()).messages.length === 0) {
      throw new PluginOptionsError(OWNER, `userInput: run ${JSON.stringify(runId)} has no messages yet: start it with a non-blank userInput`);
    }
    const policy = mergeToolPolicies(this.#options.systemToolPolicy, this.#options.toolPolicy);
    const tools = toolsAllowedBy(this.#options.tools ?? [], policy);
    const result = await runToolLoop({
      log,
      pipeline: this.#pipelines.for(conversationId),
      model: this.#options.model,
      buildOptions: {
        ...this.#options.buildOptions,
        mode: "run",
        ...(agent === undefined ? {} : { agent }),
        ...(this.#options.toolPolicy === undefined ? {} : { toolPolicy: this.#options.toolPolicy }),
        ...(this.#options.systemToolPolicy === undefined ? {} : { systemToolPolicy: this.#options.systemToolPolicy }),
      },
      // Each turn reads the step from the log, so a complete_step in the previous turn moves the directive.
      setupTurn: (messages) => {
        const state = { current: runStateOf(this.#workflow, messages) };
        const running = state.current.status === "running";
        return { tools: running ? [...tools, completeStepTool(this.#workflow, state)] : tools, options: { runContext: this.runContextOf(state.current) } };
      },
      messages: factory,
      ...(persisted[0] === undefined ? {} : { loopStartId: persisted[0].id }),
      extras: [],
      maxTurns: this.#resolved.maxTurns,
      maxRepeatedFailures: this.#resolved.maxRepeatedFailures,
      maxRetries: this.#resolved.maxRetries,
      retryDelayMs: this.#resolved.retryDelayMs,
      retryTiming: this.#resolved.retryTiming,
      signal: call.signal ?? new AbortController().signal,
      persisted,
      ...(call.onText === undefined ? {} : { onText: call.onText }),
      ...(call.onEvent === undefined ? {} : { onEvent: call.onEvent }),
    });
    return { ...result, runId, conversationId, state: await this.state(runId) };
  }
}

function checkRunId(runId: string): string {
  if (typeof runId !== "string" || runId.trim() === "") throw new PluginOptionsError(OWNER, `runId: must be a non-empty string, got ${JSON.stringify(runId)}`);
  return runId;
}
