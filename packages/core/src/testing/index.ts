// @ctxpipe/core/testing: helpers for plugin and renderer authors to test the way core does.
export { conversationFixture, everyItemTypeFixture, toolLoopFixture } from "./fixtures.js";
export { wordTokenizer } from "./word-tokenizer.js";
export { seededRandom } from "./seeded-random.js";
export { buildWith } from "./build-with.js";
export { type AdversarialOptions, adversarialConversations } from "./adversarial-conversations.js";

// Proving a renderer right, whoever wrote it
export type { RendererUnderTest } from "./renderer-under-test.js";
export { checkRendererRules, type RendererRulesCheck } from "./check-renderer-rules.js";
export { assertRendererFollowsRules, type RendererPropertyOptions } from "./assert-renderer-follows-rules.js";
export { checkRendererCarriesContent, type RendererContentCheck } from "./check-renderer-carries-content.js";
export { CONTENT_PIECE_NAMES, CONTENT_PIECES, type ContentPiece, type ContentPieceName, markerOf } from "./content-pieces.js";
