// @ctxpipe/store/testing: the contract tests every ConversationStore passes, for authors of a store to
// run against their own (they register vitest tests, so vitest must be installed), and seed-shaped
// sample messages.
export { describeStoreContract, type StoreContractSubject } from "./store-contract.js";
export { seedShapedMessages } from "./seed-shaped-messages.js";
