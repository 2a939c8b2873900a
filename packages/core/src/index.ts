// @ctxpipe/core: the item model, the importers, the pipeline and its default plugins.

// Errors
export { BudgetExceededError } from "./errors/budget-exceeded-error.js";
export { ContextValidationError, describeIssue, type ValidationIssue } from "./errors/context-validation-error.js";
export { CtxpipeError } from "./errors/ctxpipe-error.js";
export { ERROR_CODES, type ErrorCode } from "./errors/error-codes.js";
export { type InputIssue, InvalidInputError } from "./errors/invalid-input-error.js";
export { PipelineFrozenError } from "./errors/pipeline-frozen-error.js";
export { PluginError } from "./errors/plugin-error.js";
export { PluginOptionsError } from "./errors/plugin-options-error.js";
export { RendererNotFoundError } from "./errors/renderer-not-found-error.js";

// Importers
export { importAnthropicMessages, type ImportAnthropicMessagesOptions } from "./importers/import-anthropic-messages.js";
export { importMemoryChunks } from "./importers/import-memory-chunks.js";
export { importOpenAIMessages, type ImportOpenAIMessagesOptions } from "./importers/import-openai-messages.js";
export { importOpenAIResponsesItems, type ImportOpenAIResponsesItemsOptions } from "./importers/import-openai-responses-items.js";
export { DEFAULT_STORED_MODE, importStoredMessages, storedMessageMode } from "./importers/import-stored-messages.js";
export { frozenCopy } from "./model/frozen-copy.js";
export { frozenItem } from "./model/frozen-item.js";
export { isDeepFrozen } from "./model/is-deep-frozen.js";

// Item model
export { type Attachment, attachmentSchema } from "./model/attachment.js";
export { isBlank } from "./model/is-blank.js";
export { isPinned } from "./model/is-pinned.js";
export {
  ITEM_TYPES,
  type Item,
  type ItemInput,
  type ItemOf,
  type ItemRole,
  type ItemType,
  itemSchema,
} from "./model/item.js";
export { type ItemMetadata, itemMetadataSchema } from "./model/item-metadata.js";
export {
  OPENAI_RESPONSES_EXTRA_KEY,
  type OpenAIResponsesExtra,
  type OpenAIResponsesSequenceEntry,
  openAIResponsesExtraOf,
} from "./model/openai-responses-extra.js";
export {
  type OpenAIResponsesMessageWords,
  openAIResponsesMessageWords,
  openAIResponsesOutputText,
  openAIResponsesPartAttachment,
  openAIResponsesTurnText,
} from "./model/openai-responses-content.js";
export { itemText } from "./model/item-text.js";
export { orderItems } from "./model/order-items.js";
export { type ParsedInput, parseInput, parseItems, RESERVED_ID_PREFIX, type SetAsideRecord } from "./model/parse-items.js";
export { type ToolCall, type ToolCallInput, toolCallSchema } from "./model/tool-call.js";
export { computeTurnGroups, type TurnGroup, type TurnGroups } from "./model/turn-groups.js";

// Pipeline
export type { BuildOptions, InputOrder, SystemPartInput, ValidationMode, ValidationOptions } from "./pipeline/build-options.js";
export type {
  BudgetReport,
  BuildReport,
  CacheBreakpoint,
  CacheReport,
  Decision,
  OffloadedText,
  OrderReport,
  ReportAttachments,
  ReportEntry,
  ReportEvent,
  SystemPartReport,
} from "./pipeline/build-report.js";
export type { BuildMetadata, BuildResult } from "./pipeline/build-result.js";
export type { DefaultPluginName, DefaultPluginSettings } from "./pipeline/default-plugins.js";
export { currentTurnOf, estimateFixedTokens, estimateItemTokens, positionsOf } from "./pipeline/estimate-tokens.js";
export { createPipeline, Pipeline, type PipelineOptions } from "./pipeline/pipeline.js";
export { type PolicyView, policyViewOf } from "./pipeline/policy-view.js";
export type {
  Items,
  ItemsHook,
  ItemsTapResult,
  ModelLimitsHook,
  PipelineHooks,
  PipelinePlugin,
  PluginHost,
  RenderHook,
  RenderHookMap,
  RequestValidateHook,
  RequestValidateHookMap,
  TapOptions,
  TokenizerHook,
  ValidateHook,
} from "./pipeline/pipeline-hooks.js";
export { STAGE, STAGE_LABELS, STAGES, type StageLabel, type StageName } from "./pipeline/stage.js";
export type {
  Budget,
  DecisionRecorder,
  RenderContext,
  RenderResult,
  RequestPrefix,
  RequestPrefixTokens,
  StageContext,
  SystemPart,
  SystemPromptParts,
  ValidateContext,
  ValidationIssueInput,
} from "./pipeline/stage-context.js";
export { notedPrefix, notePrefix, sharedPrefixLength } from "./pipeline/list-lineage.js";
export { SYSTEM_PROMPT_ID } from "./pipeline/system-prompt-id.js";
export { TurnGroupsCache } from "./pipeline/turn-groups-cache.js";
export {
  type DecisionBatch,
  type DecisionBatchEntry,
  type DecisionRun,
  RECORD_DECISION_BATCH,
  RECORD_DECISION_RUN,
  recordDecisionBatch,
  recordDecisionRun,
} from "./pipeline/decision-batch.js";

// Default plugins
export { EstimatingTokenizerPlugin } from "./plugins/estimating-tokenizer-plugin.js";
export { FailedCallsPlugin, type FailedCallsPluginOptions } from "./plugins/failed-calls-plugin.js";
export { FilterPlugin, type FilterPluginOptions } from "./plugins/filter-plugin.js";
export { FitBudgetPlugin, type FitBudgetPluginOptions } from "./plugins/fit-budget-plugin.js";
export { HardLimitsPlugin, type HardLimitsPluginOptions } from "./plugins/hard-limits-plugin.js";
export { InsertSystemPlugin, type InsertSystemPluginOptions, type StoredSystemMessages } from "./plugins/insert-system-plugin.js";
export { parsePluginOptions } from "./plugins/parse-plugin-options.js";
export { RepairOrphansPlugin, type RepairOrphansPluginOptions } from "./plugins/repair-orphans-plugin.js";
export { VALIDATION_RULES, ValidatePlugin, type ValidatePluginOptions } from "./plugins/validate-plugin.js";

// Counting chat-shaped requests, for renderers of any format with { role, content } messages
export {
  type ChatMessageLike,
  type ChatRequestLike,
  type ChatTokenCountOptions,
  countChatMessageTokens,
  countChatRequestTokens,
} from "./renderers/count-chat-request-tokens.js";

// OpenAI Chat Completions renderer
export { countOpenAIChatMessageTokens, countOpenAIChatTokens, countOpenAIChatToolTokens } from "./renderers/openai-chat/count-openai-chat-tokens.js";
export type {
  OpenAIChatContentPart,
  OpenAIChatMessage,
  OpenAIChatRequest,
  OpenAIChatTool,
  OpenAIChatToolCall,
} from "./renderers/openai-chat/openai-chat-request.js";
export { OpenAIChatRendererPlugin, type OpenAIChatRendererPluginOptions } from "./renderers/openai-chat/openai-chat-renderer-plugin.js";
export { describeValue as describeRequestValue } from "./renderers/openai-chat/openai-chat-message-view.js";
export { promptCacheKeyRule } from "./renderers/openai-chat/openai-chat-request-rules.js";
export { openAIChatRules } from "./renderers/openai-chat/openai-chat-rules.js";
export { renderOpenAIChatMessage, summaryHeading } from "./renderers/openai-chat/render-openai-chat-message.js";

// Cutting a text too long for a limit
export { contentHandle } from "./text/content-handle.js";
export { itemContentHandle } from "./text/item-content-handle.js";
export { cutMarker, RETRIEVE_CONTEXT_TOOL_NAME } from "./text/cut-marker.js";
export { fitPromptCacheKey, MAX_PROMPT_CACHE_KEY_LENGTH } from "./text/prompt-cache-key.js";
export { type CutMiddleOptions, type CutMiddleResult, cutMiddle } from "./text/cut-middle.js";
export { DEFAULT_MAX_OFFLOADED_CHARS, OffloadedTextCache } from "./text/offloaded-text-cache.js";
export { DEFAULT_RETRIEVE_MAX_CHARS, type ReadOffloadedRangeOptions, readOffloadedRange } from "./text/read-offloaded-range.js";
export { type RetrieveContextArguments, retrieveContextArguments } from "./text/retrieve-context-arguments.js";
export { RETRIEVE_CONTEXT_DESCRIPTION, RETRIEVE_CONTEXT_PARAMETERS } from "./text/retrieve-context-definition.js";
export type { TextCut } from "./text/text-cut.js";

// Validation rules
export { checkRules } from "./validation/check-rules.js";
export { commonRequestRules } from "./validation/common-request-rules.js";
export { itemRules } from "./validation/item-rules.js";
export { CALL_ID_PATTERN, PROVIDER_MAX_STRING_LENGTH, TOOL_NAME_PATTERN } from "./validation/portable-limits.js";
export { formatJsonPath, type JsonVisitor, visitJson } from "./validation/visit-json.js";

// Specifications third parties implement
export type { Rule, RuleEnv, RuleLevel, RuleViolation, RuleViolationInput } from "./spec/rule.js";
export type { RendererName, RendererOutputMap } from "./spec/renderer-output-map.js";
export type { ModelLimits, ModelLimitsRequest } from "./spec/model-limits.js";
export type { Tokenizer, TokenizerRequest } from "./spec/tokenizer.js";
export { type ToolDefinition, type ToolDefinitionInput, toolDefinitionSchema } from "./spec/tool-definition.js";
export { estimatingTokenizer } from "./tokenizers/estimating-tokenizer.js";
