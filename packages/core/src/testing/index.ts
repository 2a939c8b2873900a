// @ctxpipe/core/testing: helpers for plugin and renderer authors to test the way core does.
export { conversationFixture, everyItemTypeFixture, toolLoopFixture } from "./fixtures.js";
export { wordTokenizer } from "./word-tokenizer.js";
export { buildWith } from "./build-with.js";
export { type AdversarialOptions, adversarialConversations } from "./adversarial-conversations.js";
