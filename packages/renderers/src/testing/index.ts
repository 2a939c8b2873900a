// @ctxpipe/renderers/testing: the provider-valid check the package's own property tests run, for
// authors of plugins that change the items (compression, filters) to run against their own plugin.
export { checkProviderValid, PROVIDERS, type ProviderCheck, type ProviderName, providerPipeline } from "../provider-valid/check-provider-valid.js";
