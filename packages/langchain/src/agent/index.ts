// @ctxpipe/langchain/agent: the createAgent middleware. Its own entry, because it needs the `langchain`
// package, which users of the importer, the renderer and the trim drop-in need not install.
export { type CtxpipeAgentMiddleware, type CtxpipeMiddlewareOptions, type CtxpipeModelCallBuild, ctxpipeMiddleware } from "./ctxpipe-middleware.js";
