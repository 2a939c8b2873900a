// @ctxpipe/store/testing: the contract tests every ConversationStore passes, for authors of a store to
// run against their own (they register vitest tests, so vitest must be installed), and sample
// messages in the stored message shape.
export { describeStoreContract, type StoreContractSubject } from "./store-contract.js";
export { exampleStoredMessages } from "./example-stored-messages.js";
