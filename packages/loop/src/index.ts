// @ctxpipe/loop: the chat, agent and run loops around a ctxpipe pipeline, and the
// model adapters they call.

// Loops
export { ChatLoop, type ChatLoopOptions, type ChatSendOptions } from "./chat/chat-loop.js";
export { type RunAbandonOptions, RunLoop, type RunContinueOptions, type RunLoopOptions, type RunResult, type RunTerminateOptions, runConversationId } from "./run/run-loop.js";
export type { LoopOptions } from "./loop/loop-options.js";
export type { LoopResult, LoopStatus } from "./loop/loop-result.js";
export type { LoopTokenizerInfo } from "./loop/counting-pipeline.js";
export type { TokenCountingOptions } from "./loop/loop-token-counting.js";
export type { TokenEstimate } from "./loop/token-estimate.js";
export type { LoopEvent, LoopEventBody, LoopEventListener } from "./loop/loop-events.js";
export { DEFAULT_INTERRUPTED_TOOL_CALLS, type InterruptedToolCallsPolicy, interruptedCallText } from "./loop/settle-interrupted-calls.js";

// Streaming to a UI
export {
  DEFAULT_MAX_STREAM_BYTES,
  DEFAULT_MAX_STREAM_EVENTS,
  DEFAULT_STREAM_HEARTBEAT_MS,
  LoopEventBuffer,
  type LoopEventBufferOptions,
  type RecordedLoopEvent,
} from "./stream/loop-event-buffer.js";
export { LOOP_EVENT_STREAM_ERROR_CODES, LoopEventStreamError, type LoopEventStreamErrorCode } from "./stream/loop-event-stream-error.js";
export { type StreamEndData, streamEventData } from "./stream/stream-event-data.js";
export { LOOP_REPEATED_FAILURE, RepeatedFailureError } from "./loop/repeated-failure-error.js";
export { type DataContext, formatDataContext, formatModelFailure, formatRunUserInput, formatUserInput } from "./loop/format-messages.js";

// Run mode
export { COMPLETE_STEP_TOOL, type RunState, type RunStatus, runStateOf, type StepTransition } from "./run/run-state.js";
export { RUN_ENDING_PART_TYPES, type RunEnding, type RunEndingStatus, TERMINATED_TEXT } from "./run/run-ending.js";
export { LOOP_RUN_ENDED, RunEndedError } from "./run/run-ended-error.js";
export type { RunEngine, RunTurn, RunTurnInput } from "./run/run-turn.js";
export { LOOP_RUN_TURN_INVALID, RunTurnError } from "./run/run-turn-error.js";
export { type WorkflowDefinition, type WorkflowEdge, type WorkflowStep, workflowDefinitionSchema } from "./run/workflow-definition.js";

// Tools
export type { LoopTool, ToolRunContext } from "./tools/loop-tool.js";
export { isToolAllowed, toolsAllowedBy } from "./tools/tools-allowed-by.js";
export {
  DEFAULT_RETRIEVE_MAX_CHARS,
  RETRIEVE_CONTEXT_CATEGORY,
  RETRIEVE_CONTEXT_TOOL,
  type RetrieveContextToolOptions,
  retrieveContextTool,
} from "./tools/retrieve-context-tool.js";

// Models
export { ANTHROPIC_VERSION, type AnthropicModelOptions, anthropicModel } from "./model/anthropic-model.js";
export { DEFAULT_TIMEOUT_MS, type ModelEnvironment } from "./model/http-model-options.js";
export type { ModelAdapter, ModelCall, ModelReply, ModelToolCall, ModelUsage } from "./model/model-adapter.js";
export { MODEL_ERROR_CODES, ModelError, type ModelErrorCode, type ModelErrorDetails } from "./model/model-error.js";
export { type OpenAICompatibleModelOptions, openAICompatibleModel } from "./model/openai-compatible-model.js";
export { type OpenAIResponsesModelOptions, openAIResponsesModel } from "./model/openai-responses-model.js";
export {
  type ScriptedAnswer,
  type ScriptedCall,
  type ScriptedFailure,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptedToolCall,
  type ScriptEntry,
  scriptedModel,
} from "./model/scripted-model.js";
