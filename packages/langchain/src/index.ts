// @ctxpipe/langchain: ctxpipe for LangChain.js.
export {};
